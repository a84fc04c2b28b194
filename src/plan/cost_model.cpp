#include "plan/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "core/collective_traits.hpp"
#include "plan/race_schedule.hpp"

namespace commtune {
namespace {

constexpr double kExpectedAfterFirstRound = 0.25;

// The settings of a size still racing in round `round`, as `expected` assumes: a quarter of them
// after round 0, half as many after each later round. The indifference zone settles the settings
// within the margin of the pick as racing drops the clearly slower ones, most of both in round 0:
// on the 2-core VM (scripts/bench-racing.sh, MPI, the noisiest machine at hand) 26% and then 18%
// of the cases were left, on simulated NCCL workers none (docs/measurements.md, 2026-12-05).
double expected_survivors(std::size_t settings, std::size_t round) {
  const double all = static_cast<double>(settings);
  return round == 0 ? all : all * kExpectedAfterFirstRound * std::pow(0.5, static_cast<double>(round - 1));
}

using SizeKeyOf = std::pair<Collective, std::uint64_t>;

// The settings that have cases at each (collective, size).
std::map<SizeKeyOf, std::set<std::size_t>> settings_per_size(const Plan& plan) {
  std::map<SizeKeyOf, std::set<std::size_t>> out;
  for (const Case& c : plan.cases) out[{c.collective, c.bytes}].insert(c.setting_index);
  return out;
}

std::size_t segments(const Plan& plan) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < plan.cases.size(); ++i)
    if (i == 0 || plan.cases[i].setting_index != plan.cases[i - 1].setting_index) ++n;
  return n;
}

CostRange exhaustive_cost(const Plan& plan, const CostModel& model) {
  CostRange total;
  for (const Case& c : plan.cases) total += case_cost(model, plan.options.stopping, c, plan.options.check);
  const double starts = static_cast<double>(segments(plan)) * model.setting_start_s;
  total += CostRange{starts, starts};
  const double runs = static_cast<double>(std::max<std::size_t>(1, plan.options.repeat));
  return CostRange{total.expected_s * runs, total.most_s * runs};
}

// Round `round` of a race: each case at a contested size, weighted by how many of its size's
// settings still race (expected) or all of them (most), its data checked in round 0 only; the
// settings opened in the round (all in round 0, then those beyond what the backend keeps open).
CostRange round_cost(const Plan& plan, const CostModel& model, std::size_t round,
                     const std::map<SizeKeyOf, std::set<std::size_t>>& per_size) {
  const StoppingRule rule = round_rule(plan.options.stopping, plan.options.race, round);
  CostRange total;
  double expected_open = 0;
  bool any_open = false;
  for (const Case& c : plan.cases) {
    const std::size_t settings = per_size.at({c.collective, c.bytes}).size();
    const bool alone = settings == 1;
    if (alone && round > 0) continue;
    const CostRange one =
        case_cost(model, alone ? plan.options.stopping : rule, c, plan.options.check && round == 0);
    const double share =
        alone || round == 0 ? 1.0 : expected_survivors(settings, round) / static_cast<double>(settings);
    total += CostRange{one.expected_s * share, one.most_s};
    expected_open = std::max(expected_open, share);
    any_open = true;
  }
  if (!any_open) return total;
  // Round 0 opens every setting; later rounds reopen only those the session cache could not keep.
  const double settings = static_cast<double>(plan.settings.size());
  const double kept = static_cast<double>(model.sessions_kept);
  const double expected_opens = round == 0 ? settings : std::max(0.0, settings * expected_open - kept);
  const double most_opens = round == 0 ? settings : std::max(0.0, settings - kept);
  total += CostRange{expected_opens * model.setting_start_s, most_opens * model.setting_start_s};
  return total;
}

}  // namespace

double iteration_seconds(const CostModel& model, std::uint64_t bytes) {
  return model.latency_s + static_cast<double>(bytes) / model.bytes_per_s;
}

CostRange case_cost(const CostModel& model, const StoppingRule& rule, const Case& c, bool check) {
  const double t = iteration_seconds(model, c.bytes);
  const double wall = traits_of(c.collective).rooted ? model.rooted_factor : 1.0;  // per sampled second
  const double fixed =
      model.case_overhead_s +
      static_cast<double>(model.warmup_cut ? rule.expected_warmup_calls(t) : rule.warmup_iterations) * t +
      (check ? 2 * t : 0);
  if (rule.fixed_iterations) {
    const double sampling = static_cast<double>(*rule.fixed_iterations) * t * wall;
    return CostRange{fixed + sampling, fixed + sampling};
  }
  // The first batch is the least samples, whatever the times; then batches until the noise
  // target (expected: soon after the least time) or the max time (most: one iteration over).
  const double first = static_cast<double>(rule.min_samples) * t;
  const double expected = std::max(first, std::min(rule.max_time_s, std::max(rule.min_time_s, 2 * first)));
  const double most = std::max(first, rule.max_time_s + t);
  return CostRange{fixed + expected * wall, fixed + most * wall};
}

CostRange plan_cost(const Plan& plan, const CostModel& model) {
  if (!plan.options.race.enabled) return exhaustive_cost(plan, model);
  const auto per_size = settings_per_size(plan);
  CostRange total;
  for (std::size_t round = 0; round < plan.options.race.rounds; ++round) {
    const CostRange one = round_cost(plan, model, round, per_size);
    total += one;
  }
  return total;
}

}  // namespace commtune
