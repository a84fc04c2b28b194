#include "cli/doctor_command.hpp"

#include <filesystem>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "launch/doctor_launch.hpp"

namespace commtune {

void add_doctor_command(CLI::App& app, DoctorCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "doctor", "Check the machine (PCIe, ACS, IOMMU, GPUDirect, NICs, NUMA, limits, environment), map pairwise "
                "bandwidth, run a small sweep, and rank what needs attention (exit 0 healthy, 1 attention, 2 bad input)");
  cmd->add_flag("--quick", o.quick, "A shorter map and sweep (seconds)");
  cmd->add_option("--json", o.json_path, "Write the findings, the ceiling and the map here (never over an existing file)");
  cmd->add_option("--system-root", o.system_root, "Read system facts under this directory instead of / (a recorded tree)");
}

int run_doctor_command(const DoctorCommandOptions& o, int argc, char** argv) {
  std::error_code error;
  if (!std::filesystem::is_directory(o.system_root, error))
    throw InputError("--system-root " + quote_text(o.system_root) + ": not a directory");
  return launch_doctor(DoctorLaunch{o.quick, o.json_path, o.system_root, argc, argv});
}

}  // namespace commtune
