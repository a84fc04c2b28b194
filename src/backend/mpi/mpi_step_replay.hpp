#pragma once
// A training step's calls replayed on host memory (`commtune replay`, issue 28): every call on its
// group's communicator (all groups at once, as in the job), step after step, each step started from
// a barrier of the whole job; the slowest rank's seconds of each step and of each call in it.
#include <mpi.h>

#include <functional>
#include <vector>

#include "backend/backend.hpp"

namespace commtune {

// The communicator a call of `spec` runs on at this rank (the world's duplicate or its group's).
using CommOf = std::function<MPI_Comm(const GroupSpec& spec)>;

// Runs `warmup` untimed steps, then `steps` timed ones. Calls with the same case share their
// buffers (a bucket all-reduced 200 times a step needs one pair of buffers, not 200). `control`
// is the whole job's, never a measured communicator. Every rank returns the same times.
StepTimes replay_host_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup,
                            const CommOf& comm_of, MPI_Comm control);

}  // namespace commtune
