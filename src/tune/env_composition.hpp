#pragma once
// The environment that applies a recommendation's job-wide choices. Open MPI: each knob as
// OMPI_MCA_<name> (algorithm names turned into their numbers) and
// OMPI_MCA_coll_tuned_use_dynamic_rules=1 when an algorithm is forced. NCCL: process-level knobs
// as they are; per-collective NCCL_ALGO / NCCL_PROTO choices merged into one value in NCCL's
// per-collective syntax (`allreduce:Tree;allgather:Ring`), only when `nccl_algo_proto` is set;
// otherwise a note says they go through the tuner plugin.
#include <string>
#include <vector>

#include "tune/export_plan.hpp"

namespace commtune {

std::vector<EnvEntry> compose_environment(const Recommendation& rec, bool nccl_algo_proto,
                                          std::vector<std::string>& notes);

}  // namespace commtune
