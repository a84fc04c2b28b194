#include "workload/workload_steps.hpp"

#include "core/collective_traits.hpp"

#include <algorithm>
#include <optional>

namespace commtune {
namespace {

std::uint64_t calls_in(const std::vector<CallRun>& runs, std::size_t from, std::size_t to) {
  std::uint64_t n = 0;
  for (std::size_t i = from; i < to; ++i) n += runs[i].length;
  return n;
}

// Whole periods after the warm-up, counted over every call (the stored runs may be a prefix).
std::uint64_t periods_in(const CallSequence& sequence, const Period& period) {
  const std::uint64_t warm_up = calls_in(sequence.runs(), 0, period.start);
  const std::uint64_t per_period = calls_in(period.pattern, 0, period.pattern.size());
  return (sequence.calls() - warm_up) / per_period;
}

StepRuns by_division(const std::vector<const CallSequence*>& sequences, std::uint64_t steps) {
  StepRuns out{.per_sequence = {}, .steps = steps, .notes = {}};
  bool all_exact = true;
  for (const CallSequence* sequence : sequences) {
    bool exact = true;
    out.per_sequence.push_back(runs_per_step(*sequence, steps, exact));
    all_exact = all_exact && exact;
  }
  out.notes.push_back("each collective's calls divided by " + std::to_string(steps) + " steps" +
                      (all_exact ? "" : " (some not evenly: rounded)"));
  return out;
}

}  // namespace

StepRuns one_step_of(const std::vector<const CallSequence*>& sequences, std::uint64_t steps) {
  if (steps > 0) return by_division(sequences, steps);
  std::vector<std::optional<Period>> periods;
  std::uint64_t fewest = 0;
  for (const CallSequence* sequence : sequences) {
    periods.push_back(find_period(sequence->runs()));
    if (periods.back()) {
      const std::uint64_t n = periods_in(*sequence, *periods.back());
      fewest = fewest == 0 ? n : std::min(fewest, n);
    }
  }
  if (fewest == 0) {
    StepRuns out = by_division(sequences, 1);
    out.notes = {"no repeating step found: the whole log is taken as one step (give --steps N)"};
    return out;
  }
  StepRuns out{.per_sequence = {}, .steps = fewest, .notes = {}};
  bool uneven = false;
  bool missing = false;
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    if (!periods[i]) {
      bool exact = true;
      out.per_sequence.push_back(runs_per_step(*sequences[i], fewest, exact));
      missing = true;
      continue;
    }
    const std::uint64_t n = periods_in(*sequences[i], *periods[i]);
    const std::uint64_t times = std::max<std::uint64_t>(1, (n + fewest / 2) / fewest);
    uneven = uneven || n % fewest != 0;
    out.per_sequence.push_back(repeat_runs(periods[i]->pattern, times));
  }
  out.notes.push_back("step found as the repeating sequence of calls: " + std::to_string(fewest) +
                      " steps after the warm-up");
  if (uneven) out.notes.push_back("a communicator's repeats are not a whole multiple of the step's: rounded");
  if (missing)
    out.notes.push_back("a communicator without a repeating sequence: its calls divided by the steps");
  return out;
}

void append_runs(std::vector<WorkloadCollective>& out, const std::vector<CallRun>& runs, const CallKeys& keys,
                 const GroupSpec& group, int group_ranks, std::vector<std::string>& notes) {
  for (const CallRun& run : runs) {
    const CallKey& key = keys.at(run.key);
    // nccl-tests sizes an all-gather or a reduce-scatter in 16-byte shares per rank; a real job's
    // call may be smaller (DDP's start-up all-gather of one int64 per rank): rounded up, said once.
    const std::uint64_t unit = size_granularity(key.collective, key.datatype, group_ranks);
    const std::uint64_t bytes = (key.bytes + unit - 1) / unit * unit;
    const std::string note = bytes == key.bytes
                                 ? std::string()
                                 : std::string(name_of(key.collective)) + " of " + std::to_string(key.bytes) +
                                       " B on " + group.name() + " rounded up to " + std::to_string(bytes) +
                                       " B, the nearest size nccl-tests can run";
    if (!note.empty() && std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    out.push_back(WorkloadCollective{.collective = key.collective,
                                     .bytes = bytes,
                                     .datatype = key.datatype,
                                     .op = key.op,
                                     .group = group,
                                     .group_ranks = group_ranks,
                                     .count = run.length,
                                     .label = {}});
  }
}

}  // namespace commtune
