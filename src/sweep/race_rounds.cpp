#include "sweep/race_rounds.hpp"

#include <algorithm>

#include "results/run_pool.hpp"
#include "tune/case_index.hpp"

namespace commtune {
namespace {

// The cases the re-measure compares at a finalist size: the default's and each finalist's, every
// placement; empty when one of them has no case or did not measure ok.
std::vector<const CaseResult*> compared_cases(const CaseIndex& index, const Finalists& f) {
  std::vector<std::string> names{kDefaultSettingName};
  names.insert(names.end(), f.settings.begin(), f.settings.end());
  const std::vector<const CaseResult*>& defaults = index.cases(kDefaultSettingName, f.key);
  std::vector<const CaseResult*> out;
  for (const std::string& name : names) {
    const std::vector<const CaseResult*>& cases = index.cases(name, f.key);
    if (cases.size() != defaults.size() || cases.empty()) return {};
    for (const CaseResult* c : cases) {
      if (c->status != CaseStatus::Ok) return {};
      out.push_back(c);
    }
  }
  return out;
}

// The rounds every compared case ran in (each case's rounds start at round 0).
std::size_t common_rounds(const std::vector<const CaseResult*>& cases) {
  std::size_t n = cases.empty() ? 0 : cases.front()->race_round_medians_us.size();
  for (const CaseResult* c : cases) n = std::min(n, c->race_round_medians_us.size());
  return n;
}

CaseResult round_case(const CaseResult& swept, double median_us) {
  CaseResult r;
  r.spec = swept.spec;
  r.setting = swept.setting;
  r.nranks = swept.nranks;
  r.time_us.count = 1;
  r.time_us.median = r.time_us.mean = r.time_us.min = r.time_us.max = median_us;
  r.pipelined_us = swept.pipelined_us;
  r.wrong = -1;  // as a re-measure round: not checked (the sweep checked the case)
  return r;
}

// A case's statistics in microseconds (the results' unit) as seconds (the sampler's).
SampleStats in_seconds(SampleStats us) {
  for (double* v : {&us.median, &us.mean, &us.min, &us.max, &us.p5, &us.p95, &us.stddev, &us.median_ci_low,
                    &us.median_ci_high})
    *v *= 1e-6;
  return us;
}

}  // namespace

CaseResult pool_race_rounds(const std::vector<CaseResult>& rounds, std::size_t side_by_side) {
  for (std::size_t i = 0; i < rounds.size(); ++i)
    if (rounds[i].status != CaseStatus::Ok) {
      CaseResult bad = rounds[i];
      bad.reason = "racing round " + std::to_string(i + 1) + ": " + bad.reason;
      return bad;
    }
  CaseResult out = pool_runs(rounds, rounds.size());
  out.run_medians_us.clear();  // rounds are not runs: compare's between-run spread does not apply
  out.run_nccl_tests_us.clear();
  for (std::size_t r = 0; r < rounds.size() && r < side_by_side; ++r)
    out.race_round_medians_us.push_back(rounds[r].time_us.median);
  return out;
}

std::optional<SampleStats> round_leader_s(const Case& c, const Plan& plan,
                                          const std::map<std::size_t, std::vector<CaseResult>>& rounds) {
  if (!c.group.is_world()) return std::nullopt;
  const SampleStats* best = nullptr;  // microseconds, as the results keep it
  for (const Case& other : plan.cases) {
    if (other.setting_index == c.setting_index || other.collective != c.collective ||
        other.bytes != c.bytes || other.placement != c.placement || !other.group.is_world())
      continue;
    const auto it = rounds.find(other.index);
    if (it == rounds.end() || it->second.size() != 1 || it->second.front().status != CaseStatus::Ok) continue;
    const SampleStats& t = it->second.front().time_us;
    if (!best || t.median_ci_high < best->median_ci_high) best = &t;
  }
  if (!best) return std::nullopt;
  return in_seconds(*best);
}

StoppingRule with_round_leader(StoppingRule round, const Case& c, const Plan& plan,
                               const std::map<std::size_t, std::vector<CaseResult>>& rounds) {
  round.leader = round_leader_s(c, plan, rounds);
  round.decision = plan.options.decision;
  return round;
}

StoppingRule with_first_block(StoppingRule round, const CaseResult& first) {
  if (first.status != CaseStatus::Ok || first.sample_unit == SampleUnit::BatchMean) return round;
  round.carried_block = first.sample_unit == SampleUnit::Block ? first.sample_block : 1;
  return round;
}

StoppingRule race_case_rule(const StoppingRule& round_rule, std::size_t round, const Case& c,
                            const Plan& plan, const std::map<std::size_t, std::vector<CaseResult>>& rounds) {
  if (round == 0) return with_round_leader(round_rule, c, plan, rounds);
  const auto it = rounds.find(c.index);
  return it == rounds.end() || it->second.empty() ? round_rule
                                                  : with_first_block(round_rule, it->second.front());
}

RaceRounds race_rounds(const ResultsDocument& swept, const std::vector<Finalists>& finalists,
                       std::size_t rounds) {
  const std::size_t most = rounds > kFreshRemeasureRounds ? rounds - kFreshRemeasureRounds : 0;
  const CaseIndex index(swept);
  RaceRounds out;
  for (const Finalists& f : finalists) {
    const std::vector<const CaseResult*> cases = compared_cases(index, f);
    const std::size_t n = std::min(common_rounds(cases), most);
    if (n == 0) continue;
    out.counted[f.key] = n;
    for (const CaseResult* c : cases)
      for (std::size_t r = 0; r < n; ++r) out.cases.push_back(round_case(*c, c->race_round_medians_us[r]));
  }
  return out;
}

}  // namespace commtune
