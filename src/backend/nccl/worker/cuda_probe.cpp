#include "backend/nccl/worker/cuda_probe.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <optional>

#include "core/errors.hpp"

namespace commtune {
namespace {

std::string cuda_said(const char* call, cudaError_t error) {
  return std::string(call) + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
}

void require(cudaError_t error, const char* call) {
  if (error != cudaSuccess) throw BackendError(cuda_said(call, error));
}

std::string version_or_unknown(cudaError_t (*get)(int*)) {
  int code = 0;
  if (get(&code) != cudaSuccess || code <= 0) return "unknown";
  return cuda_version_text(code);
}

// The driver's answer to "does this GPU support switch multicast" (NVLink SHARP, what NVLS needs):
// the runtime has no such attribute, so the driver library is asked directly, through dlsym
// (commtune does not link libcuda). cuInit and attribute queries make no context.
std::optional<bool> multicast_supported(int device) {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver == nullptr) return std::nullopt;
  using Init = CUresult (*)(unsigned int);
  using Get = CUresult (*)(CUdevice*, int);
  using Attribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
  const auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
  const auto get = reinterpret_cast<Get>(dlsym(driver, "cuDeviceGet"));
  const auto attribute = reinterpret_cast<Attribute>(dlsym(driver, "cuDeviceGetAttribute"));
  std::optional<bool> supported;
  CUdevice handle = 0;
  int value = 0;
  if (init != nullptr && get != nullptr && attribute != nullptr && init(0) == CUDA_SUCCESS &&
      get(&handle, device) == CUDA_SUCCESS &&
      attribute(&value, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, handle) == CUDA_SUCCESS)
    supported = value != 0;
  dlclose(driver);
  return supported;
}

}  // namespace

bool nvidia_driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver == nullptr) return false;
  dlclose(driver);
  return true;
}

GpuCount count_visible_gpus(bool driver_present) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error == cudaSuccess) return {count, ""};
  cudaGetLastError();  // not this process's lasting error
  if (error == cudaErrorNoDevice || (error == cudaErrorInsufficientDriver && !driver_present)) return {0, ""};
  std::string problem = cuda_said("cudaGetDeviceCount", error);
  if (error == cudaErrorInsufficientDriver)
    problem += " (driver supports CUDA " + version_or_unknown(cudaDriverGetVersion) +
               ", this commtune needs CUDA " + version_or_unknown(cudaRuntimeGetVersion) + ")";
  return {0, problem};
}

nlohmann::json device_attributes(int device) {
  cudaDeviceProp properties{};
  require(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  char bus[32] = {0};
  require(cudaDeviceGetPCIBusId(bus, sizeof bus, device), "cudaDeviceGetPCIBusId");
  nlohmann::json facts = {
      {"index", device},
      {"name", properties.name},
      {"pci_bus_id", bus},
      {"compute_capability", std::to_string(properties.major) + "." + std::to_string(properties.minor)},
      {"total_bytes", properties.totalGlobalMem}};
  if (const std::optional<bool> multicast = multicast_supported(device)) facts["multicast"] = *multicast;
  return facts;
}

nlohmann::json probe_visible_devices() {
  const GpuCount gpus = count_visible_gpus();
  if (!gpus.problem.empty()) throw BackendError(gpus.problem);
  nlohmann::json devices = nlohmann::json::array();
  for (int d = 0; d < gpus.count; ++d) devices.push_back(device_attributes(d));
  return {{"cuda_driver", version_or_unknown(cudaDriverGetVersion)},
          {"cuda_runtime", version_or_unknown(cudaRuntimeGetVersion)},
          {"devices", devices}};
}

std::string cuda_version_text(int code) {
  return std::to_string(code / 1000) + "." + std::to_string(code % 1000 / 10);
}

}  // namespace commtune
