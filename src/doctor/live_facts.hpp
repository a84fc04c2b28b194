#pragma once
// The SystemFacts of the machine this process runs on: its limits, its environment, what the
// GPU driver says about compute modes. The only part of the doctor's checks that is not a pure
// reader (the tree of a live machine is simply SystemTree("/")).
#include "doctor/system_checks.hpp"

namespace commtune {

// `local_ranks`: this job's ranks on this node (1 without a launcher).
SystemFacts live_system_facts(char** environ_list, int local_ranks);

}  // namespace commtune
