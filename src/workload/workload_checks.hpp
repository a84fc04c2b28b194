#pragma once
// The rules a workload holds to, one place for the reader (workload_from_json) and every maker
// (presets, the NCCL log and trace readers): known names, sizes that are whole elements and whole
// shares of the group, groups that fit the job, counts of at least one. Each failure is an
// InputError whose message starts with the entry's path.
#include <cstdint>
#include <string>

#include "core/plausible_bounds.hpp"
#include "workload/workload.hpp"

namespace commtune {

inline constexpr std::int64_t kMaxWorkloadBytes = 1ll << 40;  // one collective: 1 TiB
inline constexpr std::int64_t kMaxWorkloadCount = 1ll << 40;  // times per step
inline constexpr std::int64_t kMaxWorldRanks = kMaxPlausibleCount;

// "nccl-log", "torch-trace", "preset".
bool is_workload_source_kind(const std::string& kind);
std::string workload_source_kinds();  // "nccl-log, torch-trace, preset", for messages

// The size against its collective's granularity on its group, and the group against the job:
// `world` has every rank; a DIV or MOD split must cut the job into equal groups of group_ranks; any
// other shape's group_ranks must divide world_ranks. `where` starts each message.
void check_collective(const WorkloadCollective& c, int world_ranks, const std::string& where);

// Everything workload_from_json checks, on a workload built in memory; `origin` starts each message.
void check_workload(const Workload& workload, const std::string& origin);

}  // namespace commtune
