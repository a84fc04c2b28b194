#pragma once
// One training step out of the calls the readers kept (call_sequence), for several communicators
// at once, and its entries as workload collectives.
// - steps > 0 (--steps N): each communicator's calls of each kind divided by N.
// - steps == 0: each communicator's repeating period (find_period); the step is the longest of
//   them (the fewest repeats, N), and a communicator whose period repeats k times as often (a
//   tensor-parallel group once per micro-batch) has its period k times in the step. A
//   communicator without a period gets its calls divided by N; with no period anywhere the whole
//   log is one step.
// Every guess is said in the notes.
#include <cstdint>
#include <string>
#include <vector>

#include "workload/call_sequence.hpp"
#include "workload/workload.hpp"

namespace commtune {

struct StepRuns {
  std::vector<std::vector<CallRun>> per_sequence;  // in the order given
  std::uint64_t steps = 0;                         // steps the calls held
  std::vector<std::string> notes;
};

StepRuns one_step_of(const std::vector<const CallSequence*>& sequences, std::uint64_t steps);

// The runs as workload entries (count = the run's calls) on `group`; a size nccl-tests cannot run (an
// all-gather share under 16 bytes) rounded up to the next one it can, said in `notes`.
void append_runs(std::vector<WorkloadCollective>& out, const std::vector<CallRun>& runs, const CallKeys& keys,
                 const GroupSpec& group, int group_ranks, std::vector<std::string>& notes);

}  // namespace commtune
