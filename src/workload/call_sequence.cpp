#include "workload/call_sequence.hpp"

#include "core/errors.hpp"

namespace commtune {

std::uint32_t CallKeys::intern(const CallKey& key, const std::string& origin) {
  if (const auto it = index_.find(key); it != index_.end()) return it->second;
  if (keys_.size() >= kMaxDistinctCalls)
    throw InputError(
        origin + ": more than " + std::to_string(kMaxDistinctCalls) +
        " distinct collective calls (collective, size, type, op): not a repeating training step");
  const auto index = static_cast<std::uint32_t>(keys_.size());
  keys_.push_back(key);
  index_.emplace(key, index);
  return index;
}

void CallSequence::add(std::uint32_t key) {
  ++calls_;
  const auto [it, added] = total_index_.emplace(key, totals_.size());
  if (added) totals_.emplace_back(key, 0);
  ++totals_[it->second].second;
  if (calls_ > 1 && key == last_key_) {
    if (last_open_) ++runs_.back().length;
    return;
  }
  last_key_ = key;
  last_open_ = runs_.size() < kMaxStoredRuns;
  if (last_open_)
    runs_.push_back(CallRun{.key = key, .length = 1});
  else
    complete_ = false;
}

namespace {

// Whether run j repeats at j + p among the first `end` runs; the log's very last run may be cut short
// by its end (only when `end` is the log's end).
bool repeats_at(const std::vector<CallRun>& runs, std::size_t j, std::size_t p, std::size_t end) {
  const CallRun& a = runs[j];
  const CallRun& b = runs[j + p];
  if (j + p + 1 == runs.size() && end == runs.size()) return a.key == b.key && b.length <= a.length;
  return a == b;
}

// The shortest period repeating unbroken to run `end`, over at least half of those runs.
std::optional<Period> period_ending_at(const std::vector<CallRun>& runs, std::size_t end) {
  for (std::size_t p = 1; 2 * p <= end; ++p) {
    std::size_t start = end - p;  // the first run of the repeating part
    while (start > 0 && repeats_at(runs, start - 1, p, end)) --start;
    const std::size_t covered = end - start;
    // At least two whole periods, over at least half of the runs: a short tail that happens to
    // repeat is not the step.
    if (covered < 2 * p || 2 * covered < end) continue;
    return Period{.start = start,
                  .pattern = std::vector<CallRun>(runs.begin() + static_cast<std::ptrdiff_t>(start),
                                                  runs.begin() + static_cast<std::ptrdiff_t>(start + p)),
                  .repeats = covered / p};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Period> find_period(const std::vector<CallRun>& runs) {
  // A job's last calls may follow its last step (PyTorch DDP's shutdown all-gather): up to
  // kMaxTrailingRuns runs after the repeating part are left out, the fewest that give a period.
  for (std::size_t trailing = 0; trailing <= kMaxTrailingRuns && trailing < runs.size(); ++trailing)
    if (auto period = period_ending_at(runs, runs.size() - trailing)) return period;
  return std::nullopt;
}

std::vector<CallRun> repeat_runs(const std::vector<CallRun>& pattern, std::uint64_t times) {
  std::vector<CallRun> out;
  for (std::uint64_t t = 0; t < times; ++t)
    for (const CallRun& run : pattern) {
      if (!out.empty() && out.back().key == run.key)
        out.back().length += run.length;
      else
        out.push_back(run);
    }
  return out;
}

std::vector<CallRun> runs_per_step(const CallSequence& sequence, std::uint64_t steps, bool& exact) {
  exact = true;
  std::vector<CallRun> out;
  for (const auto& [key, calls] : sequence.totals()) {
    if (calls % steps != 0) exact = false;
    const std::uint64_t per_step = (calls + steps / 2) / steps;
    out.push_back(CallRun{.key = key, .length = per_step == 0 ? 1 : per_step});
  }
  return out;
}

}  // namespace commtune
