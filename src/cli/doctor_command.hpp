#pragma once
// `commtune doctor [--quick] [--json FILE] [--backend auto|mpi|nccl]`: is every link as fast as
// it should be, is a node or a cable slow, is a fast path switched off? Exit 0 healthy, 1 needs
// attention, 2 bad input.
#include <string>

#include <CLI/CLI.hpp>

#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "launch/wiring.hpp"

namespace commtune {

struct DoctorCommandOptions {
  bool quick = false;
  std::string json_path;
  std::string system_root = "/";
  std::string backend = "auto";
  NcclRunOptions nccl;          // --ranks --emulate-nodes --init-timeout --case-timeout
  CLI::App* command = nullptr;  // to ask which flags were given
};

void add_doctor_command(CLI::App& app, DoctorCommandOptions& options);
int run_doctor_command(const DoctorCommandOptions& options, int argc, char** argv, const Wiring& wiring);

}  // namespace commtune
