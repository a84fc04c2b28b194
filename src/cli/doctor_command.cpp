#include "cli/commands.hpp"

#include <filesystem>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "host/launcher.hpp"
#include "launch/backend_choice.hpp"
#include "launch/doctor_launch.hpp"
#include "measure/stopping_rule.hpp"

namespace commtune {
namespace {

bool given(const DoctorCommandOptions& o, const char* flag) { return o.command->count(flag) > 0; }

// The NCCL backend's flags: checked, and refused (not ignored) when the doctor runs on MPI.
void check_backend_flags(const DoctorCommandOptions& o, const BackendChoice& choice) {
  for (const auto& [flag, seconds] : {std::pair{"--init-timeout", o.nccl.init_timeout_s},
                                      std::pair{"--case-timeout", o.nccl.case_timeout_s}})
    if (given(o, flag) && !(seconds >= 1e-3 && seconds <= kMaxCaseSeconds))
      throw InputError(std::string(flag) + " must be a number of seconds from 0.001 to 3600");
  if (choice.kind == BackendKind::Nccl) return;
  for (const char* flag : {"--ranks", "--emulate-nodes", "--init-timeout", "--case-timeout"})
    if (given(o, flag))
      throw InputError(std::string(flag) + " is an NCCL backend option; this doctor runs on " +
                       choice.reason);
}

}  // namespace

void add_doctor_command(CLI::App& app, DoctorCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "doctor",
      "Check the machine (PCIe, ACS, IOMMU, GPUDirect, NICs, NUMA, limits, environment), map pairwise "
      "bandwidth, run a small sweep, and rank what needs attention (exit 0 healthy, 1 attention, 2 bad "
      "input)");
  o.command = cmd;
  cmd->add_flag("--quick", o.quick, "A shorter map and sweep (seconds)");
  cmd->add_option("--json", o.json_path,
                  "Write the findings, the ceiling and the map here (never over an existing file)");
  cmd->add_option("--system-root", o.system_root,
                  "Read system facts under this directory instead of / (a recorded tree)");
  cmd->add_option("--backend", o.backend,
                  "auto (NCCL when GPUs are visible, else MPI), mpi or nccl: what measures the pairwise map");
  cmd->add_option("--ranks", o.nccl.ranks,
                  "NCCL without a launcher: workers to map, 2 to 1024 (default: one per visible GPU)")
      ->check(CLI::Range(2, 1024));
  cmd->add_flag("--emulate-nodes", o.nccl.emulate_nodes,
                "NCCL: every rank its own NCCL_HOSTID (ranks sharing a GPU, over the network path)");
  cmd->add_option("--init-timeout", o.nccl.init_timeout_s,
                  "NCCL: seconds the map's communicator init may take, up to 3600 (default 120)");
  cmd->add_option("--case-timeout", o.nccl.case_timeout_s,
                  "NCCL: seconds each round of the map may take, up to 3600 (default 60)");
}

int run_doctor_command(const DoctorCommandOptions& o, int argc, char** argv, const Wiring& wiring) {
  std::error_code error;
  if (!std::filesystem::is_directory(o.system_root, error))
    throw InputError("--system-root " + quote_text(o.system_root) + ": not a directory");
  const BackendChoice choice = choose_backend(parse_backend_or_auto(o.backend, "--backend"), wiring);
  check_backend_flags(o, choice);
  DoctorLaunch launch{o.quick, o.json_path, o.system_root, argc, argv};
  launch.choice = choice;
  launch.nccl = o.nccl;
  launch.launcher = detect_launcher();
  return launch_doctor(launch);
}

}  // namespace commtune
