#pragma once
// What differs between the commtune executable and the test build (tests/simulated): the engine a
// worker process runs, a decoration of each NCCL backend, knobs beyond NCCL's, and the label of a
// simulated run. The product's wiring names only real parts, so no environment variable, config
// or flag of a normal run can reach a test double: they are not in the executable.
#include <functional>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "backend/nccl/worker/worker_engine.hpp"
#include "knobs/nccl_knobs.hpp"

namespace commtune {

struct Wiring {
  EngineFactory worker_engine;
  // Wraps the NCCL backend of the supervisor of `rank` (the product: returns it unchanged).
  std::function<std::unique_ptr<Backend>(std::unique_ptr<Backend>, int rank)> decorate_nccl_backend;
  KnobChecks extra_nccl_knobs;
  // Empty in the product. Otherwise workers simulate: the NCCL backend needs no GPU, and every
  // output of the run (banner, table, results, tune summary, exports) carries this label.
  std::string simulated_label;
  bool simulated() const { return !simulated_label.empty(); }
};

// The commtune executable's wiring: the NCCL engine, the backends as they are, nothing else.
inline Wiring product_wiring() {
  Wiring wiring;
  wiring.worker_engine = make_nccl_engine;
  wiring.decorate_nccl_backend = [](std::unique_ptr<Backend> backend, int) { return backend; };
  return wiring;
}

}  // namespace commtune
