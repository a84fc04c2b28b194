#pragma once
// What a worker does for its supervisor: the real one drives a GPU through NCCL; the test build's
// simulated one (backend/nccl/simulated) answers the same requests with modelled timings, so that
// the whole supervisor / watchdog machinery is testable on machines without a GPU.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

// Where this worker sits: its rank among all workers of the setting and its device.
struct WorkerIdentity {
  int rank = 0;
  int nranks = 1;
  int device = 0;
};

// Thrown by an engine when its communicator is unusable (aborted, async error): the supervisor
// must stop the worker. A plain BackendError leaves the worker usable for the next case.
class CommunicatorLost : public BackendError {
 public:
  using BackendError::BackendError;
};

class WorkerEngine {
 public:
  virtual ~WorkerEngine() = default;
  // Devices, driver / runtime / NCCL versions, free memory per device.
  virtual nlohmann::json probe() = 0;
  // Rank 0 only: a fresh ncclUniqueId, hex encoded.
  virtual std::string unique_id() = 0;
  virtual nlohmann::json init(const std::string& unique_id, const CommConfig& config) = 0;
  // After init: one communicator per group spec (GroupSplit), split from the world's; every
  // worker of the job takes part. A case then runs on the communicator its spec names.
  virtual void split(const SplitRequest& request) = 0;
  // Allocates and fills the case's buffers (local only: no communication).
  virtual void prepare(const CaseRequest& request) = 0;
  // Runs the collective once on the filled buffers; elements that differ from the exact result.
  virtual std::int64_t check() = 0;
  // Times `iterations` back to back on this rank: each one's seconds (with `block` > 1, each
  // block's seconds / block: one event per block, not per iteration), or with a graph the
  // graph's seconds / iterations; and the timed loop's seconds.
  virtual TimedBatch time(std::size_t iterations, std::size_t block) = 0;
  // A training step replayed: each call's buffers made on its group's communicator, `warmup`
  // untimed steps, then the timed ones, each from a barrier of the whole job (worker_protocol.hpp).
  virtual ReplayedSteps replay(const StepsRequest& request) = 0;
  // One round of the pairwise map: exchanges with request.peer (both directions at once) on the
  // communicator, timed on this rank; nothing to do without a peer.
  virtual PairSamples pairwise(const PairwiseRequest& request) = 0;
  // Frees the case's buffers after its last timing: between cases, and while the setting waits
  // open for a later racing round, the worker holds its communicator only.
  virtual void release_case() = 0;
  virtual void finish() = 0;
};

// Makes the engine of a worker process (the product: make_nccl_engine).
using EngineFactory = std::function<std::unique_ptr<WorkerEngine>(const WorkerIdentity&)>;

// The NCCL engine; throws UnavailableError in a build without NCCL.
std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity& identity);

}  // namespace commtune
