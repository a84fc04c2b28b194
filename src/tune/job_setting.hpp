#pragma once
// A recommendation's job-wide choices as one setting (`commtune replay --recommendation`): the knobs
// its env files set, so that a replay measures the job under exactly what it would be launched
// with. NCCL: the process-level knobs and the per-collective NCCL_ALGO / NCCL_PROTO merged in NCCL's
// per-collective syntax (for every size: the per-size tuner rules are not a setting); Open MPI: every
// chosen setting's control variables.
#include <string>
#include <vector>

#include "plan/setting.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

inline constexpr const char* kRecommendationSettingName = "recommendation";

// The setting, named "recommendation"; `notes` get what it cannot carry (two choices setting one
// knob differently, the per-size rules). No knob when the recommendation keeps the default everywhere.
Setting job_wide_setting(const Recommendation& rec, std::vector<std::string>& notes);

}  // namespace commtune
