// The test builds of the commtune command line, with fault injection (COMMTUNE_TEST_FAULT knobs):
// commtune-simulated (COMMTUNE_SIMULATED_ENGINE=1) runs simulated NCCL workers, for the tests of
// supervisors, the watchdog and whole NCCL sweeps on machines without a GPU; commtune-faults runs
// the real NCCL engine, for the GPU tests of the watchdog. Built with the tests only; the commtune
// executable contains none of it.
#include <cstdlib>

#include "backend/nccl/simulated/fault_backend.hpp"
#include "backend/nccl/simulated/fault_engine.hpp"
#include "backend/nccl/simulated/simulated_engine.hpp"
#include "backend/nccl/simulated/test_faults.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "cli/app.hpp"

namespace {

commtune::Wiring simulated_wiring() {
  using namespace commtune;
  Wiring wiring;
  wiring.worker_engine = [](const WorkerIdentity& identity) {
    std::unique_ptr<WorkerEngine> engine =
        COMMTUNE_SIMULATED_ENGINE ? make_simulated_engine(identity) : make_nccl_engine(identity);
    return with_worker_fault(std::move(engine), fault_from_environment(), identity.rank, kWorkerChannelFd);
  };
  wiring.decorate_nccl_backend = with_supervisor_faults;
  wiring.extra_nccl_knobs = {{kTestFaultKnob, [](const std::string& value) { parse_test_fault(value); }}};
  if (COMMTUNE_SIMULATED_ENGINE)
    wiring.simulated_label = "simulated workers: test build, no GPU used, modelled timings";
  return wiring;
}

}  // namespace

int main(int argc, char** argv) { return commtune::run_commtune(argc, argv, simulated_wiring()); }
