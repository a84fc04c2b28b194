// The real worker: one GPU, a blocking NCCL communicator (and one per group spec, split from it),
// the fill/verify kernels and CUDA event timing. Waits poll the stream and ncclCommGetAsyncError, so that an
// error found while waiting carries NCCL's text and belongs to the step that waited; a hang is left to the
// supervisor's watchdog, which kills this process (NCCL has no collective timeout).
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "backend/nccl/worker/batch_timing.hpp"
#include "backend/nccl/worker/cuda_handles.hpp"
#include "backend/nccl/worker/cuda_probe.hpp"
#include "backend/nccl/worker/nccl_comm_setup.hpp"
#include "backend/nccl/worker/device_case.hpp"
#include "backend/nccl/worker/gpu_contender.hpp"
#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/pair_exchange.hpp"
#include "backend/nccl/worker/step_replay.hpp"
#include "backend/nccl/worker/worker_comms.hpp"
#include "backend/nccl/worker/worker_engine.hpp"
#include "measure/cpu_clock.hpp"

namespace commtune {
namespace {

class NcclEngine : public WorkerEngine, private StreamWork {
 public:
  explicit NcclEngine(const WorkerIdentity& identity) : identity_(identity) {}
  ~NcclEngine() override { release(); }

  // Attribute queries only: no context on any GPU (backend/nccl/worker/cuda_probe.hpp).
  nlohmann::json probe() override {
    int nccl = 0;
    ncclGetVersion(&nccl);
    nlohmann::json facts = probe_visible_devices();
    facts["nccl_version"] = nccl_version_text(nccl);
    facts["nccl_headers"] = nccl_version_text(NCCL_VERSION_CODE);
    return facts;
  }

  std::string unique_id() override {
    ncclUniqueId id;
    check_nccl(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId", true);
    return to_hex(id);
  }

  nlohmann::json init(const std::string& unique_id, const CommConfig& config) override {
    check_cuda(cudaSetDevice(identity_.device), "cudaSetDevice", true);
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate", true);
    counter_ = std::make_unique<WrongCounter>();
    net_name_ = config.net_name;  // NCCL keeps the pointer
    ncclConfig_t nccl_config = blocking_config(config, net_name_);
    // Returns once the communicator is ready or has failed; a hang here is the watchdog's.
    const ncclResult_t result = ncclCommInitRankConfig(comms_.world_slot(), identity_.nranks,
                                                       from_hex(unique_id), identity_.rank, &nccl_config);
    if (result == ncclInProgress)
      abort_comm(
          "ncclCommInitRankConfig: NCCL_COMM_BLOCKING=0 in the environment made the communicator "
          "non-blocking; "
          "the worker needs a blocking one");
    if (result != ncclSuccess)
      abort_comm("ncclCommInitRankConfig: " + nccl_error_text(result, comms_.world()));
    require_healthy("communicator init");
    int version = 0;
    ncclGetVersion(&version);
    return {{"nccl_version", nccl_version_text(version)}, {"device", own_device_facts(identity_.device)}};
  }

  void split(const SplitRequest& request) override {
    require_healthy("the communicator failed before its split");
    if (std::optional<std::string> failed = comms_.split(request.groups, identity_.rank)) abort_comm(*failed);
    require_healthy("communicator split");
  }

  void prepare(const CaseRequest& request) override {
    // An error that arrived after the previous case's last wait: say so, not blame this case.
    require_healthy("the communicator failed between cases, before this one started");
    current_.reset();
    request_ = request;
    const GroupCommunicator* group = nullptr;
    if (!request.spec.group.is_world() && !(group = comms_.group(request.spec.group.name())))
      throw BackendError("no communicator was split for group spec '" + request.spec.group.name() + "'");
    comm_ = group ? group->comm : comms_.world();
    // With a graph, the buffers are kept from case to case at the sweep's largest size (NCCL
    // registers what a graph captures and reclaims it lazily: a freed and reused address could
    // meet a stale registration); without, each case allocates its own.
    if (request.graph && !arena_) arena_ = std::make_unique<DeviceArena>();
    current_ = std::make_unique<DeviceCase>(request.spec, group ? group->rank : identity_.rank,
                                            group ? group->nranks : identity_.nranks,
                                            request.graph ? arena_.get() : nullptr, request.largest_bytes);
    current_->fill_for_check(stream_);
    wait_for_stream("fill");
  }

  std::int64_t check() override {
    require_case();
    counter_->zero(stream_);
    enqueue_or_drain([&] { require_launched("data check collective", current_->launch(comm_, stream_)); });
    current_->count_wrong(counter_->device(), stream_);
    counter_->copy_to_host(stream_);
    wait_for_stream("data check");
    return static_cast<std::int64_t>(counter_->host_value());
  }

  // With the host thread's CPU and wall seconds over the whole batch (enqueue, then the polling
  // wait): a worker starved of the CPU (a CPU limit, a core other work takes) gets a smaller share
  // than the others, the evidence of the sweep's straggler finding.
  TimedBatch time(std::size_t iterations, std::size_t block) override {
    require_case();
    if (block == 0 || iterations % block != 0) throw BackendError("time: iterations are not whole blocks");
    std::optional<GpuContender> load;  // --contend: the load runs while the batch is timed
    if (request_.contend > 0) load.emplace(request_.contend, identity_.device);
    const LoopCpuClock clock;
    TimedBatch batch = request_.graph ? time_graph(iterations) : time_iterations(iterations, block);
    const LoopCpuClock::Elapsed host = clock.elapsed();
    batch.cpu_seconds = host.cpu_s;
    batch.wall_seconds = host.wall_s;
    return batch;
  }

  ReplayedSteps replay(const StepsRequest& request) override {
    require_healthy("the communicator failed before this replay");
    current_.reset();  // a case's buffers are not needed meanwhile
    std::optional<GpuContender> load;
    if (request.contend > 0) load.emplace(request.contend, identity_.device);
    return replay_steps(request, comms_, identity_.rank, identity_.nranks, stream_, *this);
  }

  // One round of the pairwise map on the world communicator (pair_exchange.hpp).
  PairSamples pairwise(const PairwiseRequest& r) override {
    require_healthy("the communicator failed before this pairwise round");
    if (r.peer < 0) return {};
    if (r.peer >= identity_.nranks || r.peer == identity_.rank)
      throw BackendError("pairwise: peer " + std::to_string(r.peer) +
                         " is not another rank of the communicator");
    current_.reset();  // a case's buffers are not needed meanwhile
    return measure_pair(r, comms_.world(), stream_, *this);
  }

  void release_case() override { current_.reset(); }

  void finish() override { release(); }

 private:
  void require_case() const {
    if (!current_) throw BackendError("no case prepared");
  }

  // A GPU-side barrier, then k + 1 iterations back to back: an event after the barrier, after
  // the first iteration (that interval, host enqueue and skew leaving the barrier, is dropped)
  // and after each block of `block` iterations, so k / block intervals remain.
  TimedBatch time_iterations(std::size_t k, std::size_t block) {
    EventPool events(events_for(k, block));
    enqueue_or_drain([&] {
      launch_barriers("barrier before the timed batch");
      record(events[0]);
      require_launched("timed collective", current_->launch(comm_, stream_));
      record(events[1]);
      for (std::size_t i = 0; i < k; ++i) {
        require_launched("timed collective", current_->launch(comm_, stream_));
        if ((i + 1) % block == 0) record(events[2 + i / block]);
      }
    });
    wait_for_stream("timed iterations");
    return batch_from_marks(events.marks(), block);
  }

  // k iterations captured into a graph, timed from outside: an event after the barrier and one
  // after the graph (a plain cudaEventRecord inside a capture only orders the captured work and
  // records nothing when the graph runs).
  TimedBatch time_graph(std::size_t k) {
    const std::unique_ptr<GraphExec> graph = capture(k);
    check_cuda(cudaGraphUpload(graph->get(), stream_), "cudaGraphUpload", true);  // not in the timed launch
    EventPool events(2);
    enqueue_or_drain([&] {
      launch_barriers("barrier before the timed graph");
      record(events[0]);
      check_cuda(cudaGraphLaunch(graph->get(), stream_), "cudaGraphLaunch", true);
      record(events[1]);
    });
    wait_for_stream("timed graph");
    return batch_from_graph(events.seconds_between(0, 1), k);
  }

  // The capture ends before a refused launch is handled: aborting a communicator may make CUDA
  // calls that a capturing stream does not allow.
  std::unique_ptr<GraphExec> capture(std::size_t k) {
    StreamCapture capture(stream_);
    for (std::size_t i = 0; i < k; ++i) {
      const ncclResult_t result = current_->launch(comm_, stream_);
      if (result == ncclSuccess) continue;
      capture.abandon();
      require_launched("captured collective", result);
    }
    return capture.finish();
  }

  // The case's own barrier; on a group's communicator, a barrier of the whole job first, so that
  // every group starts the batch together, as a training job's groups run side by side.
  void launch_barriers(const std::string& what) {
    if (comm_ != comms_.world()) {
      if (!job_barrier_) job_barrier_ = std::make_unique<DeviceBytes>(1);
      require_launched(what + " (whole job)", ncclAllReduce(job_barrier_->get(), job_barrier_->get(), 1,
                                                            ncclUint8, ncclMax, comms_.world(), stream_));
    }
    require_launched(what, current_->launch_barrier(comm_, stream_));
  }

  void record(cudaEvent_t event) { check_cuda(cudaEventRecord(event, stream_), "cudaEventRecord", true); }

  // Runs `enqueue`; when a launch fails and the communicator survives, waits for what was queued
  // before it, so that the failed case leaves nothing running behind it.
  template <typename Enqueue>
  void enqueue_or_drain(Enqueue&& enqueue) {
    try {
      enqueue();
    } catch (const CommunicatorLost&) {
      throw;
    } catch (const BackendError&) {
      wait_for_stream("after a failed launch");
      throw;
    }
  }

  // A launch NCCL refused is this case's error, with NCCL's text. It is not fatal while the
  // communicator is healthy (NCCL found no algorithm for the forced NCCL_ALGO / NCCL_PROTO: the
  // next case may have one); with the communicator in error it is, and still this case's.
  void enqueue_then_drain_on_error(const std::function<void()>& enqueue) override {
    enqueue_or_drain(enqueue);
  }

  void require_launched(const std::string& what, ncclResult_t result) override {
    if (result == ncclSuccess) return;
    const std::string text = what + ": " + nccl_error_text(result, comm_);
    ncclResult_t state = ncclSuccess;
    const ncclResult_t queried = ncclCommGetAsyncError(comm_, &state);
    if (queried != ncclSuccess || state != ncclSuccess)
      abort_comm(text + "; the communicator is in error: " +
                 ncclGetErrorString(queried != ncclSuccess ? queried : state));
    if (std::optional<std::string> other = comms_.async_error())
      abort_comm(text + "; a communicator is in error: " + *other);
    throw BackendError(text);
  }

  void require_healthy(const std::string& what) {
    if (!comms_.alive()) throw CommunicatorLost(what + ": the communicator was aborted");
    if (std::optional<std::string> error = comms_.async_error()) abort_comm(what + ": " + *error);
  }

  // Polls: the stream for completion, the communicator for an error (checked once more after
  // completion, so that an error raised by this step is reported by this step).
  void wait_for_stream(const char* what) override {
    while (true) {
      const cudaError_t query = cudaStreamQuery(stream_);
      if (query != cudaSuccess && query != cudaErrorNotReady) check_cuda(query, what, true);
      if (comms_.alive()) require_healthy(what);
      if (query == cudaSuccess) return;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  [[noreturn]] void abort_comm(const std::string& text) {
    comms_.abort_all();  // never destroy a broken communicator
    comm_ = nullptr;
    throw CommunicatorLost(text);
  }

  void release() {
    current_.reset();
    job_barrier_.reset();
    comms_.release();
    comm_ = nullptr;
    arena_.reset();  // after the communicator: its registrations are gone with it
    counter_.reset();
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  WorkerIdentity identity_;
  WorkerComms comms_;
  ncclComm_t comm_ = nullptr;                 // the current case's: the world's or its group spec's
  std::unique_ptr<DeviceBytes> job_barrier_;  // the whole job's barrier before a group's batch
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<WrongCounter> counter_;  // the data check's wrong elements
  std::string net_name_;
  CaseRequest request_;
  std::unique_ptr<DeviceCase> current_;
  std::unique_ptr<DeviceArena> arena_;  // graph mode: buffers kept from case to case
};

}  // namespace

std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity& identity) {
  return std::make_unique<NcclEngine>(identity);
}

}  // namespace commtune
