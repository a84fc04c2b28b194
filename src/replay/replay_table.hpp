#pragma once
// What `commtune replay` prints at the end (stdout): per setting the step's communication time with
// its interval, the change against the default with its interval and verdict; each call's share of
// the default's step; with a price, the money each change saves or costs.
#include <string>

#include "replay/replay_record.hpp"

namespace commtune {

std::string replay_table(const ReplayRecord& record);

// One call as a person reads it: "allreduce 25 MiB bfloat16 on world (4 ranks) x7 (buckets 1-7)".
std::string call_text(const WorkloadCollective& call);

}  // namespace commtune
