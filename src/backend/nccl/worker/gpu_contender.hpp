#pragma once
// The worker's compute load on its GPU while a case is timed or a step replayed (`--contend F`):
// kernels/contention's blocks on a stream of their own, over F of the SMs, from construction until
// destruction (which sets the host-mapped stop flag and waits for them).
#include <cuda_runtime_api.h>

namespace commtune {

class GpuContender {
 public:
  // Throws BackendError when the load cannot start (memory, launch).
  GpuContender(double fraction, int device);
  ~GpuContender();
  GpuContender(const GpuContender&) = delete;
  GpuContender& operator=(const GpuContender&) = delete;

 private:
  void start(double fraction, int device);
  void release();
  cudaStream_t stream_ = nullptr;
  int* stop_ = nullptr;  // host-mapped
  unsigned long long* buffer_ = nullptr;
};

}  // namespace commtune
