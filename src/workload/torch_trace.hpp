#pragma once
// `commtune workload --torch-trace FILE`: a training step's collectives read from a PyTorch
// profiler Chrome trace (torch 2.1 and later; docs/workload-readers.md). The communication events
// are the CPU ops named "record_param_comms" (c10d's RECORD_PARAM_COMMS), whose args the profiler
// writes from ParamCommsDebugInfo (torch/csrc/profiler/util.cpp, saveNcclMeta): "Collective name",
// "dtype", "In msg nelems", "Out msg nelems", "Group size", and from torch 2.2-2.4 on "Process
// Group Name", "Process Group Description", "Process Group Ranks". A trace without those CPU ops
// is read from the GPU kernels kineto gave the same args. "ProfilerStep#N" spans mark the steps.
// A trace is one rank's view: the shapes are inferred without hosts, and the notes say so.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "workload/workload.hpp"

namespace commtune {

struct TorchTraceOptions {
  std::uint64_t steps = 0;  // steps the trace holds (--steps); 0: its ProfilerStep spans, else one
};

Workload read_torch_trace(const std::string& path, const TorchTraceOptions& options = {});

// The same over a trace already parsed; `origin` names it in messages.
Workload torch_trace_from_json(const nlohmann::json& trace, const std::string& origin,
                               const TorchTraceOptions& options = {});

}  // namespace commtune
