#pragma once
// Which knobs can differ per collective and which hold for the whole process. NCCL_ALGO and
// NCCL_PROTO take per-collective syntax; Open MPI's coll_tuned_<coll>_algorithm* variables name
// their collective. Every other knob (NCCL_P2P_DISABLE, NCCL_NET, channels, other MCA variables)
// is process-level: one value for the whole job.
#include <optional>
#include <string>

#include "core/types.hpp"
#include "plan/setting.hpp"

namespace commtune {

bool is_per_collective_knob(const std::string& name);

// A setting is per-collective when all its knobs are; the default (no knobs) is neither.
bool is_per_collective_setting(const Setting& setting);
bool is_process_setting(const Setting& setting);

}  // namespace commtune
