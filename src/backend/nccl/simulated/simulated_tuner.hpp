#pragma once
// The tuner side of the simulated NCCL: loads a tuner plugin the way NCCL 2.28 does
// (NCCL_TUNER_PLUGIN as given, a bare NAME also as libnccl-tuner-NAME.so, `none` for no tuner,
// libnccl-tuner.so when unset; symbol ncclTunerPlugin_v5), calls its init per communicator, and
// before each collective its getCollInfo with a cost table from a simple simulated cost model. So
// commtune's own plugin, in record mode, writes the record a real NCCL run would make it write.
#include <array>
#include <cstdint>
#include <memory>

#include "core/types.hpp"

namespace commtune {

inline constexpr int kSimulatedAlgorithms = 7;  // NCCL's NCCL_NUM_ALGORITHMS
inline constexpr int kSimulatedProtocols = 3;   // NCCL_NUM_PROTOCOLS
using SimulatedCostTable = std::array<float, kSimulatedAlgorithms * kSimulatedProtocols>;

// Microseconds per (algorithm, protocol), -1 where unavailable: Ring everywhere, Tree for
// all-reduce only, no CollNet, NVLS or PAT; latency + bytes / bandwidth with per-protocol figures.
SimulatedCostTable simulated_cost_table(Collective collective, std::uint64_t bytes, int nranks);

class SimulatedTuner {
 public:
  // Loads the environment's tuner, if any, and inits one context (never throws: no tuner then).
  SimulatedTuner(int nranks, int nnodes);
  ~SimulatedTuner();
  SimulatedTuner(const SimulatedTuner&) = delete;
  SimulatedTuner& operator=(const SimulatedTuner&) = delete;

  // What NCCL does before enqueuing one collective of `bytes` (NCCL's nBytes): asks the tuner,
  // except on a one-rank communicator, which NCCL runs without it.
  void before_collective(Collective collective, std::uint64_t bytes);

 private:
  struct Loaded;
  std::unique_ptr<Loaded> loaded_;
  int nranks_;
};

}  // namespace commtune
