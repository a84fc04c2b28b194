#include "backend/nccl/worker/gpu_contender.hpp"

#include "backend/nccl/worker/nccl_check.hpp"
#include "contention.hpp"

namespace commtune {
namespace {

constexpr std::size_t kWords = (256u << 20) / sizeof(unsigned long long);  // 256 MiB: beyond the L2

}  // namespace

GpuContender::GpuContender(double fraction, int device) {
  try {
    start(fraction, device);
  } catch (...) {
    release();
    throw;
  }
}

void GpuContender::start(double fraction, int device) {
  int sms = 0, shared = 0;
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check_cuda(cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
             "cudaDeviceGetAttribute");
  check_cuda(cudaHostAlloc(reinterpret_cast<void**>(&stop_), sizeof *stop_, cudaHostAllocMapped),
             "cudaHostAlloc (contention flag)");
  *stop_ = 0;
  int* device_stop = nullptr;
  check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_stop), stop_, 0),
             "cudaHostGetDevicePointer");
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&buffer_), kWords * sizeof *buffer_),
             "cudaMalloc (contention)");
  check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate (contention)");
  // More than half an SM's shared memory per block: no two blocks share an SM.
  check_cuda(kernels::launch_contention(fraction, sms, static_cast<std::size_t>(shared) / 2 + 1024, buffer_,
                                        kWords, device_stop, stream_),
             "contention kernel launch");
}

GpuContender::~GpuContender() { release(); }

void GpuContender::release() {
  if (stop_ != nullptr) *reinterpret_cast<volatile int*>(stop_) = 1;
  if (stream_ != nullptr) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  if (buffer_ != nullptr) cudaFree(buffer_);
  if (stop_ != nullptr) cudaFreeHost(stop_);
  stream_ = nullptr, buffer_ = nullptr, stop_ = nullptr;
}

}  // namespace commtune
