#include "launch/wiring.hpp"

namespace commtune {

Wiring product_wiring() {
  Wiring wiring;
  wiring.worker_engine = make_nccl_engine;
  wiring.decorate_nccl_backend = [](std::unique_ptr<Backend> backend, int) { return backend; };
  return wiring;
}

}  // namespace commtune
