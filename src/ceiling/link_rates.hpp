#pragma once
// Line rates of the links collectives run on, per direction, in GB/s (10^9 bytes/s), and what
// published measurements reach on them. Sources: docs/ceilings.md (NVIDIA specifications,
// nccl-tests and NCCL issue threads).
#include <optional>
#include <string>

namespace commtune {

// NVLink generation of a GPU from its marketing name ("NVIDIA H200" -> 4); nothing when unknown.
std::optional<int> nvlink_generation(const std::string& gpu_name);
// Per link, per direction: NVLink 1: 20, 2-4: 25, 5: 50 GB/s.
double nvlink_link_gbps(int generation);

// Per lane, per direction, after line encoding: Gen1 0.25 ... Gen5 3.938, Gen6 7.877 GB/s.
double pcie_lane_gbps(int generation);

// A NIC's signalling rate in Gb/s as GB/s.
inline double nic_gbps(double gigabits) { return gigabits / 8.0; }

}  // namespace commtune
