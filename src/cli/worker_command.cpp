#include "cli/commands.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <iostream>

#include "backend/nccl/worker/worker_engine.hpp"
#include "backend/nccl/worker/worker_loop.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

void add_worker_command(CLI::App& app, WorkerCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("worker", "Internal: a supervisor's worker process (socket on fd 3)");
  cmd->group("");  // hidden from --help
  cmd->add_option("--rank", o.rank, "Rank of this worker")->required();
  cmd->add_option("--nranks", o.nranks, "Ranks of the communicator")->required();
  cmd->add_option("--device", o.device, "CUDA device index")->required();
  cmd->add_option("--parent", o.parent, "Supervisor pid");
}

int run_worker_command(const WorkerCommandOptions& o, const EngineFactory& make_engine) {
  // A worker must never outlive its supervisor, even when it hangs inside NCCL.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (o.parent != 0 && getppid() != static_cast<pid_t>(o.parent)) return 6;
  const WorkerIdentity identity{o.rank, o.nranks, o.device};
  try {
    std::unique_ptr<WorkerEngine> engine = make_engine(identity);
    return serve_supervisor(*engine, kWorkerChannelFd);
  } catch (const std::exception& e) {
    const std::string line = error_reply_line(std::string("worker could not start: ") + e.what(), true);
    [[maybe_unused]] const ssize_t written = write(kWorkerChannelFd, line.data(), line.size());
    std::cerr << "commtune worker: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace commtune
