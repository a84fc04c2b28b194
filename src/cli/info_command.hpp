#pragma once
// `commtune info`: which backends this build has, the NCCL version it runs with, visible GPUs.
#include <CLI/CLI.hpp>

#include "launch/wiring.hpp"

namespace commtune {

void add_info_command(CLI::App& app);
int run_info_command(const Wiring& wiring);

}  // namespace commtune
