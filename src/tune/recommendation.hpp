#pragma once
// What the tuner concluded, self-contained so that exports need nothing else: per (collective,
// size) the winner or why the default stays, the job-wide choices (one setting per scope: each
// collective's own knobs, and the process-level knobs), settings that can never be recommended,
// and the knobs of every setting named.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "core/types.hpp"
#include "plan/setting.hpp"
#include "results/nccl_choice.hpp"

namespace commtune {

// The communicators a decision holds for: the world's (the recommendation's ranks and nodes), or,
// for a case of another group spec (--groups), its slowest group's ranks and nodes: the shape the
// NCCL tuner rules and the Open MPI communicator-size sections match.
struct GroupShape {
  std::string spec = "world";  // GroupSpec::name()
  int nranks = 0, nnodes = 0;  // 0: the recommendation's (world)
  bool is_world() const { return spec == "world"; }
  auto operator<=>(const GroupShape&) const = default;
};

struct SizeDecision {
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  std::string winner;     // empty: the default stays
  double gain = 0;        // fraction of the default's time saved (worst placement)
  double default_us = 0;  // medians behind `gain`
  double winner_us = 0;
  bool confirmed = false;                // the interleaved re-measure agreed
  std::string reason;                    // why the default stays
  std::optional<NcclChoice> nccl_chose;  // what NCCL chose by itself here, where recorded (NCCL backend)
  GroupShape group{};                    // the communicators it holds for
};

// A contiguous run of measured sizes where a setting is clearly faster or clearly slower.
struct RangeGain {
  Collective collective = Collective::AllReduce;
  std::uint64_t min_bytes = 0, max_bytes = 0;
  double min_gain = 0, max_gain = 0;  // negative: slower
  std::size_t sizes = 0;
  std::string group = "world";  // the group spec (--groups) whose communicators these sizes ran on
};

struct JobChoice {
  std::string scope;          // "process" or a collective name
  std::string setting;        // kDefaultSettingName when nothing beats the default
  double objective_gain = 0;  // weighted geometric-mean time saved over the objective's sizes
  double weight_won = 0;      // share of the objective's weight where it is clearly faster
  std::vector<RangeGain> gains;
  std::string why;
};

struct Recommendation {
  BackendKind backend = BackendKind::Mpi;
  int nranks = 0;
  int nnodes = 1;
  double min_margin = 0.02;
  std::string objective;   // described in words
  bool confirmed = false;  // finalists re-measured in an interleaved round
  std::size_t confirm_rounds = 0;
  std::vector<Setting> settings;
  std::vector<SizeDecision> sizes;
  std::vector<JobChoice> choices;
  std::map<std::string, std::string> disqualified;  // setting -> reason
  std::vector<std::string> notes;
  std::vector<std::string>
      labels;               // the results' labels (simulated workers, emulated nodes): said in every output
  bool incomplete = false;  // tuned on an interrupted sweep (--allow-incomplete): said in every output

  const Setting* find_setting(const std::string& name) const {
    for (const auto& s : settings)
      if (s.name == name) return &s;
    return nullptr;
  }
  // No size winner and no job-wide choice.
  bool defaults_best() const {
    const bool size_winner =
        std::any_of(sizes.begin(), sizes.end(), [](const SizeDecision& d) { return !d.winner.empty(); });
    const bool job_choice = std::any_of(choices.begin(), choices.end(),
                                        [](const JobChoice& c) { return c.setting != kDefaultSettingName; });
    return !size_winner && !job_choice;
  }
};

}  // namespace commtune
