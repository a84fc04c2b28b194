// The real worker: one GPU, one blocking NCCL communicator, the fill/verify kernels and CUDA
// event timing. Waits poll the stream and ncclCommGetAsyncError, so that an error found while
// waiting carries NCCL's text and belongs to the step that waited; a hang is left to the
// supervisor's watchdog, which kills this process (NCCL has no collective timeout).
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "backend/nccl/worker/device_case.hpp"
#include "backend/nccl/worker/nccl_check.hpp"
#include "backend/nccl/worker/worker_engine.hpp"

namespace commtune {
namespace {

std::string to_hex(const ncclUniqueId& id) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (char byte : id.internal) {
    const auto b = static_cast<unsigned char>(byte);
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex;
}

ncclUniqueId from_hex(const std::string& hex) {
  ncclUniqueId id;
  if (hex.size() != 2 * sizeof id.internal) throw CommunicatorLost("malformed NCCL unique id");
  for (std::size_t i = 0; i < sizeof id.internal; ++i)
    id.internal[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return id;
}

nlohmann::json device_facts(int device) {
  cudaDeviceProp properties{};
  check_cuda(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  std::size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  char bus[32] = {0};
  cudaDeviceGetPCIBusId(bus, sizeof bus, device);
  return {{"index", device},
          {"name", properties.name},
          {"pci_bus_id", bus},
          {"compute_capability", std::to_string(properties.major) + "." + std::to_string(properties.minor)},
          {"total_bytes", total},
          {"free_bytes", free}};
}

std::string cuda_version_text(int code) { return std::to_string(code / 1000) + "." + std::to_string(code % 1000 / 10); }

class EventPool {
 public:
  explicit EventPool(std::size_t n) : events_(n) {
    for (auto& e : events_) check_cuda(cudaEventCreate(&e), "cudaEventCreate", true);
  }
  ~EventPool() {
    for (auto e : events_) cudaEventDestroy(e);
  }
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;
  cudaEvent_t operator[](std::size_t i) const { return events_[i]; }

  std::vector<double> intervals() const {
    std::vector<double> seconds(events_.size() - 1);
    for (std::size_t i = 0; i + 1 < events_.size(); ++i) {
      float ms = 0;
      check_cuda(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]), "cudaEventElapsedTime", true);
      seconds[i] = ms * 1e-3;
    }
    return seconds;
  }

 private:
  std::vector<cudaEvent_t> events_;
};

// Blocking, NCCL's default and what nccl-tests uses: with blocking = 0 every group end (every
// collective is one) starts a launch thread (src/group.cc). Only the CTA bounds that were given
// are set: NCCL refuses minCTAs > maxCTAs before it fills defaults (src/init.cc,
// parseCommConfig), so completing a lone bound is the supervisor's (comm_config_of).
ncclConfig_t blocking_config(const CommConfig& config, const std::string& net_name) {
  ncclConfig_t nccl_config = NCCL_CONFIG_INITIALIZER;
  nccl_config.blocking = 1;
  if (config.min_ctas) nccl_config.minCTAs = *config.min_ctas;
  if (config.max_ctas) nccl_config.maxCTAs = *config.max_ctas;
  if (!net_name.empty()) nccl_config.netName = net_name.c_str();
  return nccl_config;
}

class NcclEngine : public WorkerEngine {
 public:
  explicit NcclEngine(const WorkerIdentity& identity) : identity_(identity) {}
  ~NcclEngine() override { release(); }

  nlohmann::json probe() override {
    int count = 0, driver = 0, runtime = 0, nccl = 0;
    check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    ncclGetVersion(&nccl);
    nlohmann::json devices = nlohmann::json::array();
    for (int d = 0; d < count; ++d) devices.push_back(device_facts(d));
    return {{"nccl_version", nccl_version_text(nccl)}, {"nccl_headers", nccl_version_text(NCCL_VERSION_CODE)},
            {"cuda_driver", cuda_version_text(driver)}, {"cuda_runtime", cuda_version_text(runtime)}, {"devices", devices}};
  }

  std::string unique_id() override {
    ncclUniqueId id;
    check_nccl(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId", true);
    return to_hex(id);
  }

  nlohmann::json init(const std::string& unique_id, const CommConfig& config) override {
    check_cuda(cudaSetDevice(identity_.device), "cudaSetDevice", true);
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate", true);
    check_cuda(cudaMalloc(&counter_, sizeof *counter_), "cudaMalloc", true);
    check_cuda(cudaMallocHost(&counter_host_, sizeof *counter_host_), "cudaMallocHost", true);
    net_name_ = config.net_name;  // NCCL keeps the pointer
    ncclConfig_t nccl_config = blocking_config(config, net_name_);
    // Returns once the communicator is ready or has failed; a hang here is the watchdog's.
    const ncclResult_t result =
        ncclCommInitRankConfig(&comm_, identity_.nranks, from_hex(unique_id), identity_.rank, &nccl_config);
    if (result == ncclInProgress)
      abort_comm("ncclCommInitRankConfig: NCCL_COMM_BLOCKING=0 in the environment made the communicator non-blocking; "
                 "the worker needs a blocking one");
    if (result != ncclSuccess) abort_comm("ncclCommInitRankConfig: " + nccl_error_text(result, comm_));
    require_healthy("communicator init");
    int version = 0;
    ncclGetVersion(&version);
    return {{"nccl_version", nccl_version_text(version)}, {"device", device_facts(identity_.device)}};
  }

  void prepare(const CaseRequest& request) override {
    // An error that arrived after the previous case's last wait: say so, not blame this case.
    require_healthy("the communicator failed between cases, before this one started");
    current_.reset();
    request_ = request;
    current_ = std::make_unique<DeviceCase>(request.spec, identity_.rank, identity_.nranks);
    current_->fill_for_check(stream_);
    wait_for_stream("fill");
  }

  std::int64_t check() override {
    require_case();
    check_cuda(cudaMemsetAsync(counter_, 0, sizeof *counter_, stream_), "cudaMemsetAsync", true);
    enqueue_or_drain([&] { require_launched("data check collective", current_->launch(comm_, stream_)); });
    current_->count_wrong(counter_, stream_);
    // Into pinned memory the copy is queued like a kernel and returns at once (into pageable
    // memory it would block until the collective is done, outside the polling below).
    check_cuda(cudaMemcpyAsync(counter_host_, counter_, sizeof *counter_, cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync", true);
    wait_for_stream("data check");
    return static_cast<std::int64_t>(*counter_host_);
  }

  std::vector<double> time(std::size_t iterations) override {
    require_case();
    EventPool events(iterations + 1);
    if (request_.graph) {
      launch_graph(iterations, events);
    } else {
      enqueue_or_drain([&] { enqueue_timed(iterations, events); });
    }
    wait_for_stream("timed iterations");
    return events.intervals();
  }

  void finish() override { release(); }

 private:
  void require_case() const {
    if (!current_) throw BackendError("no case prepared");
  }

  // Iterations back to back, an event between each: per-iteration durations, no host gaps.
  void enqueue_timed(std::size_t iterations, const EventPool& events) {
    record(events[0]);
    for (std::size_t i = 0; i < iterations; ++i) {
      require_launched("timed collective", current_->launch(comm_, stream_));
      record(events[i + 1]);
    }
  }

  // The same sequence captured once into a CUDA graph and launched as one unit.
  void launch_graph(std::size_t iterations, const EventPool& events) {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture", true);
    enqueue_timed(iterations, events);
    check_cuda(cudaStreamEndCapture(stream_, &graph), "cudaStreamEndCapture", true);
    const cudaError_t built = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    check_cuda(built, "cudaGraphInstantiate", true);
    const cudaError_t launched = cudaGraphLaunch(exec, stream_);
    wait_for_stream("graph launch");
    cudaGraphExecDestroy(exec);
    check_cuda(launched, "cudaGraphLaunch", true);
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
  void require_launched(const std::string& what, ncclResult_t result) {
    if (result == ncclSuccess) return;
    const std::string text = what + ": " + nccl_error_text(result, comm_);
    ncclResult_t state = ncclSuccess;
    const ncclResult_t queried = ncclCommGetAsyncError(comm_, &state);
    if (queried != ncclSuccess || state != ncclSuccess)
      abort_comm(text + "; the communicator is in error: " + ncclGetErrorString(queried != ncclSuccess ? queried : state));
    throw BackendError(text);
  }

  void require_healthy(const std::string& what) {
    if (comm_ == nullptr) throw CommunicatorLost(what + ": the communicator was aborted");
    ncclResult_t state = ncclSuccess;
    const ncclResult_t queried = ncclCommGetAsyncError(comm_, &state);
    if (queried != ncclSuccess) abort_comm(what + ": " + nccl_error_text(queried, comm_));
    if (state != ncclSuccess) abort_comm(what + ": " + nccl_error_text(state, comm_));
  }

  // Polls: the stream for completion, the communicator for an error (checked once more after
  // completion, so that an error raised by this step is reported by this step).
  void wait_for_stream(const char* what) {
    while (true) {
      const cudaError_t query = cudaStreamQuery(stream_);
      if (query != cudaSuccess && query != cudaErrorNotReady) check_cuda(query, what, true);
      if (comm_ != nullptr) require_healthy(what);
      if (query == cudaSuccess) return;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  [[noreturn]] void abort_comm(const std::string& text) {
    if (comm_ != nullptr) ncclCommAbort(comm_);  // never destroy a broken communicator
    comm_ = nullptr;
    throw CommunicatorLost(text);
  }

  void release() {
    current_.reset();
    if (comm_ != nullptr) {
      // Blocking finalize waits for outstanding work; destroy only a communicator that finalized.
      if (ncclCommFinalize(comm_) == ncclSuccess) ncclCommDestroy(comm_);
      else ncclCommAbort(comm_);
      comm_ = nullptr;
    }
    if (counter_host_ != nullptr) cudaFreeHost(counter_host_);
    if (counter_ != nullptr) cudaFree(counter_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    counter_host_ = nullptr;
    counter_ = nullptr;
    stream_ = nullptr;
  }

  WorkerIdentity identity_;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  unsigned long long* counter_ = nullptr;       // device: wrong elements of the check
  unsigned long long* counter_host_ = nullptr;  // pinned host copy of it
  std::string net_name_;
  CaseRequest request_;
  std::unique_ptr<DeviceCase> current_;
};

}  // namespace

std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity& identity) {
  return std::make_unique<NcclEngine>(identity);
}

}  // namespace commtune
