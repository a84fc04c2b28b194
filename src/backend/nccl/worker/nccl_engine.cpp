// The real worker: one GPU, one non-blocking NCCL communicator, the fill/verify kernels and CUDA
// event timing. Waits poll the stream and ncclCommGetAsyncError (where a non-blocking
// communicator reports its errors); a hang is left to the supervisor's watchdog, which kills
// this process.
#include <cuda_runtime_api.h>
#include <nccl.h>

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
    net_name_ = config.net_name;  // NCCL keeps the pointer
    ncclConfig_t nccl_config = NCCL_CONFIG_INITIALIZER;
    nccl_config.blocking = 0;
    if (config.min_ctas) nccl_config.minCTAs = *config.min_ctas;
    if (config.max_ctas) nccl_config.maxCTAs = *config.max_ctas;
    if (!net_name_.empty()) nccl_config.netName = net_name_.c_str();
    check_nccl(ncclCommInitRankConfig(&comm_, identity_.nranks, from_hex(unique_id), identity_.rank, &nccl_config), comm_,
               "ncclCommInitRankConfig", true);
    wait_for_comm("communicator init");
    int version = 0;
    ncclGetVersion(&version);
    return {{"nccl_version", nccl_version_text(version)}, {"device", device_facts(identity_.device)}};
  }

  void prepare(const CaseRequest& request) override {
    current_.reset();
    request_ = request;
    current_ = std::make_unique<DeviceCase>(request.spec, identity_.rank, identity_.nranks);
    current_->fill_for_check(stream_);
    wait_for_stream("fill");
  }

  std::int64_t check() override {
    require_case();
    check_cuda(cudaMemsetAsync(counter_, 0, sizeof *counter_, stream_), "cudaMemsetAsync", true);
    enqueue();
    current_->count_wrong(counter_, stream_);
    unsigned long long wrong = 0;
    check_cuda(cudaMemcpyAsync(&wrong, counter_, sizeof wrong, cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync", true);
    wait_for_stream("data check");
    return static_cast<std::int64_t>(wrong);
  }

  std::vector<double> time(std::size_t iterations) override {
    require_case();
    EventPool events(iterations + 1);
    if (request_.graph) {
      launch_graph(iterations, events);
    } else {
      enqueue_timed(iterations, events);
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
    check_cuda(cudaEventRecord(events[0], stream_), "cudaEventRecord", true);
    for (std::size_t i = 0; i < iterations; ++i) {
      enqueue();
      check_cuda(cudaEventRecord(events[i + 1], stream_), "cudaEventRecord", true);
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

  void enqueue() {
    const ncclResult_t result = current_->launch(comm_, stream_);
    // Errors NCCL finds before launching leave the communicator usable (e.g. no algorithm for
    // this collective under the forced NCCL_ALGO); anything else ends this worker.
    check_nccl(result, comm_, "collective launch", result != ncclInvalidUsage && result != ncclInvalidArgument);
    if (result == ncclInProgress) wait_for_comm("collective enqueue");
  }

  void wait_for_comm(const char* what) {
    ncclResult_t state = ncclInProgress;
    while (state == ncclInProgress) {
      check_nccl(ncclCommGetAsyncError(comm_, &state), comm_, what, true);
      if (state == ncclInProgress) std::this_thread::yield();
    }
    if (state != ncclSuccess) abort_with(what, state);
  }

  void wait_for_stream(const char* what) {
    while (true) {
      const cudaError_t query = cudaStreamQuery(stream_);
      if (query == cudaSuccess) return;
      if (query != cudaErrorNotReady) check_cuda(query, what, true);
      if (comm_ != nullptr) {
        ncclResult_t state = ncclSuccess;
        ncclCommGetAsyncError(comm_, &state);
        if (state != ncclSuccess && state != ncclInProgress) abort_with(what, state);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  [[noreturn]] void abort_with(const char* what, ncclResult_t state) {
    const std::string text = std::string(what) + ": " + nccl_error_text(state, comm_);
    ncclCommAbort(comm_);  // never destroy a broken communicator
    comm_ = nullptr;
    throw CommunicatorLost(text);
  }

  void release() {
    current_.reset();
    if (comm_ != nullptr) {
      // Non-blocking finalize: wait for it to settle; destroy only a communicator that finalized.
      ncclResult_t state = ncclCommFinalize(comm_);
      while (state == ncclInProgress && ncclCommGetAsyncError(comm_, &state) == ncclSuccess) std::this_thread::yield();
      if (state == ncclSuccess) ncclCommDestroy(comm_);
      else ncclCommAbort(comm_);
      comm_ = nullptr;
    }
    if (counter_ != nullptr) cudaFree(counter_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    counter_ = nullptr;
    stream_ = nullptr;
  }

  WorkerIdentity identity_;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  unsigned long long* counter_ = nullptr;
  std::string net_name_;
  CaseRequest request_;
  std::unique_ptr<DeviceCase> current_;
};

}  // namespace

std::unique_ptr<WorkerEngine> make_nccl_engine(const WorkerIdentity& identity) {
  return std::make_unique<NcclEngine>(identity);
}

}  // namespace commtune
