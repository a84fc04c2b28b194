#pragma once
// `commtune doctor [--quick] [--json FILE]`: is every link as fast as it should be, is a node or
// a cable slow, is a fast path switched off? Exit 0 healthy, 1 needs attention, 2 bad input.
#include <string>

#include <CLI/CLI.hpp>

namespace commtune {

struct DoctorCommandOptions {
  bool quick = false;
  std::string json_path;
  std::string system_root = "/";
};

void add_doctor_command(CLI::App& app, DoctorCommandOptions& options);
int run_doctor_command(const DoctorCommandOptions& options, int argc, char** argv);

}  // namespace commtune
