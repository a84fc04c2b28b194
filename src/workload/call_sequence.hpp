#pragma once
// The calls one communicator made, as the workload readers keep them: run-length encoded (the
// same call n times in a row is one run), bounded in memory however long the log, and the
// repeating step found in them. Shared by the NCCL log and the PyTorch trace readers.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace commtune {

// One distinct call: what a workload entry is made of (bytes in nccl-tests' accounting).
struct CallKey {
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  DataType datatype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
  auto operator<=>(const CallKey&) const = default;
};

// Every distinct call of a read, numbered in order of first appearance. At most
// kMaxDistinctCalls: a log with more is not a repeating training step (an InputError naming
// `origin`).
inline constexpr std::size_t kMaxDistinctCalls = 1 << 16;
class CallKeys {
 public:
  std::uint32_t intern(const CallKey& key, const std::string& origin);
  const CallKey& at(std::uint32_t index) const { return keys_.at(index); }

 private:
  std::map<CallKey, std::uint32_t> index_;
  std::vector<CallKey> keys_;
};

struct CallRun {
  std::uint32_t key = 0;
  std::uint64_t length = 0;  // consecutive calls
  bool operator==(const CallRun&) const = default;
};

// Runs stored per sequence; the calls after them are still counted (totals), only their order
// is no longer kept, which the step search does not need.
inline constexpr std::size_t kMaxStoredRuns = 1 << 16;

class CallSequence {
 public:
  void add(std::uint32_t key);
  const std::vector<CallRun>& runs() const { return runs_; }
  bool complete() const { return complete_; }  // every run is stored
  std::uint64_t calls() const { return calls_; }
  // (key, calls) in order of the key's first call.
  const std::vector<std::pair<std::uint32_t, std::uint64_t>>& totals() const { return totals_; }

 private:
  std::vector<CallRun> runs_;
  bool complete_ = true;
  bool last_open_ = false;  // the last stored run may still grow
  std::uint32_t last_key_ = 0;
  std::uint64_t calls_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> totals_;
  std::map<std::uint32_t, std::size_t> total_index_;
};

// The shortest period of runs that repeats, unbroken, to the end of the stored runs (the last run
// may be cut short: a log ends mid-step), at least twice; the runs before it are warm-up. Where
// none does, up to kMaxTrailingRuns runs at the end are left out (a job's shutdown calls after its
// last step). Empty when there is none.
inline constexpr std::size_t kMaxTrailingRuns = 8;
struct Period {
  std::size_t start = 0;         // first run of the repeating part
  std::vector<CallRun> pattern;  // one period
  std::uint64_t repeats = 0;     // whole periods after `start`
};
std::optional<Period> find_period(const std::vector<CallRun>& runs);

// `pattern` repeated `times` times, runs of one key that meet merged.
std::vector<CallRun> repeat_runs(const std::vector<CallRun>& pattern, std::uint64_t times);

// One step out of `steps` from the totals: each key once, in order of first call, with its calls
// divided by `steps` (rounded, at least 1). `exact` says whether every division was exact.
std::vector<CallRun> runs_per_step(const CallSequence& sequence, std::uint64_t steps, bool& exact);

}  // namespace commtune
