#pragma once
// `commtune worker` (hidden): the worker process a supervisor starts for one setting. Not for
// users: it expects the supervisor's socket at fd 3.
#include <CLI/CLI.hpp>

#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {

struct WorkerCommandOptions {
  int rank = 0;
  int nranks = 1;
  int device = 0;
  long parent = 0;  // the supervisor's pid: the worker exits when it is gone
};

void add_worker_command(CLI::App& app, WorkerCommandOptions& options);
int run_worker_command(const WorkerCommandOptions& options, const EngineFactory& make_engine);

}  // namespace commtune
