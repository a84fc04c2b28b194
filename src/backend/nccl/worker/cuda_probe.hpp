#pragma once
// What CUDA says about the visible GPUs without creating a CUDA context on any of them: the count
// (with CUDA's own words where it could not count: a driver older than the runtime is not "no
// GPU"), and each device's attributes and PCI bus id. No cudaSetDevice, cudaMemGetInfo or
// allocation here: in Exclusive_Process compute mode a context made by a probe would take the
// GPU from the worker that needs it, and under `mpirun -np 8` on an 8-GPU node every supervisor
// probing every GPU would make 64. Free memory is read by the worker once it owns its GPU.
#include <string>

#include <nlohmann/json.hpp>

#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune {

// Whether the NVIDIA driver's library (libcuda.so.1) can be loaded in this process.
bool nvidia_driver_present();

// cudaGetDeviceCount. No device, or no NVIDIA driver at all (CUDA then says
// cudaErrorInsufficientDriver too), is a count of 0 with no problem; any other error, an
// insufficient driver where one is installed included, is a count of 0 with the call, CUDA's
// error name, its text and the driver's CUDA version where CUDA gives it.
GpuCount count_visible_gpus(bool driver_present = nvidia_driver_present());

// {"index", "name", "pci_bus_id", "compute_capability", "total_bytes"[, "multicast"]} of one
// visible device, from attribute queries only ("multicast": the driver says it supports switch
// multicast, what NVLS needs; absent where the driver cannot be asked); throws BackendError with
// CUDA's words.
nlohmann::json device_attributes(int device);

// {"cuda_driver", "cuda_runtime", "devices": [device_attributes...]}: every visible device, no
// context made; throws BackendError with CUDA's words where CUDA cannot count its devices.
nlohmann::json probe_visible_devices();

// "13.0" from CUDA's 13000.
std::string cuda_version_text(int code);

}  // namespace commtune
