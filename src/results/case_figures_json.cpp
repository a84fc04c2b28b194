#include "results/case_figures_json.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

#include "core/collective_traits.hpp"
#include "core/json_fields.hpp"
#include "core/message_text.hpp"
#include "core/plausible_bounds.hpp"
#include "measure/sampler.hpp"
#include "plan/case_json.hpp"
#include "results/arrivals_json.hpp"
#include "results/results_json.hpp"

namespace commtune {

using nlohmann::json;

namespace {

json groups_json(const CaseGroups& groups) {
  json members = json::array();
  for (const GroupFigure& g : groups.groups)
    members.push_back({{"ranks", g.ranks},
                       {"nodes", g.nodes},
                       {"time_us", to_json(g.time_us)},
                       {"algbw_gbps", g.algbw_gbps},
                       {"busbw_gbps", g.busbw_gbps}});
  return {{"shape", groups.shape},
          {"slowest", groups.slowest},
          {"busbw_sum_gbps", groups.busbw_sum_gbps},
          {"members", members}};
}

}  // namespace

// Fields a backend may add to a measured case; absent when they do not apply, so a results file
// without them reads (and writes) exactly as before.
void put_optional_figures(json& j, const CaseResult& r) {
  if (r.sample_unit != SampleUnit::Iteration) j["sample"] = name_of(r.sample_unit);
  if (r.sample_unit == SampleUnit::Block) j["sample_block"] = r.sample_block;
  if (r.nccl_choice) j["nccl_choice"] = to_json(*r.nccl_choice);
  if (!r.run_medians_us.empty()) j["run_medians_us"] = r.run_medians_us;
  if (r.raced_out) j["raced_out"] = json{{"round", r.raced_out->round}, {"reason", r.raced_out->reason}};
  if (r.arrivals) j["arrivals"] = to_json(*r.arrivals);
  if (!r.cpu_share.empty()) j["cpu_share"] = r.cpu_share;
  if (r.groups) j["groups"] = groups_json(*r.groups);
  if (!r.nccl_tests) return;
  j["nccl_tests_us"] = r.nccl_tests->time_us;
  j["nccl_tests_algbw_gbps"] = r.nccl_tests->algbw_gbps;
  j["nccl_tests_busbw_gbps"] = r.nccl_tests->busbw_gbps;
  if (!r.run_nccl_tests_us.empty()) j["nccl_tests_run_us"] = r.run_nccl_tests_us;
}

json to_json(const CaseCost& cost) {
  return {{"case_s", cost.case_s},
          {"warmup_s", cost.warmup_s},
          {"timed_s", cost.timed_s},
          {"timed_calls", cost.timed_calls}};
}

namespace {

constexpr double kMaxCostSeconds = 1e7;                    // far above any sweep's case, short of infinity
constexpr std::int64_t kMaxCostCalls = 1'000'000'000'000;  // likewise for its timed calls

}  // namespace

void read_case_cost(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("cost")) return;
  const std::string path = member_path(where, "cost");
  const json& cost = j["cost"];
  if (!cost.is_object()) bad_value(path, "an object {case_s, warmup_s, timed_s, timed_calls}", cost);
  for (const auto& item : cost.items())
    if (item.key() != "case_s" && item.key() != "warmup_s" && item.key() != "timed_s" &&
        item.key() != "timed_calls")
      throw InputError(path + ": unknown field " + quote_text(item.key()));
  const auto seconds = [&](const char* key) {
    return number_in(required_field(cost, key, path), member_path(path, key), 0, kMaxCostSeconds);
  };
  r.cost = CaseCost{
      .case_s = seconds("case_s"),
      .warmup_s = seconds("warmup_s"),
      .timed_s = seconds("timed_s"),
      .timed_calls = static_cast<std::size_t>(integer_in(
          required_field(cost, "timed_calls", path), member_path(path, "timed_calls"), 0, kMaxCostCalls))};
}

namespace {

// A list of per-run times: 1 to kMaxRepeat plausible times > 0.
std::vector<double> run_times_at(const json& j, const char* key, const std::string& where) {
  const std::string path = member_path(where, key);
  const json& list = required_field(j, key, where);
  if (!list.is_array() || list.empty() || list.size() > kMaxRepeat)
    bad_value(path, "a list of 1 to " + std::to_string(kMaxRepeat) + " times in microseconds", list);
  std::vector<double> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item = path + "[" + std::to_string(i) + "]";
    if (!list[i].is_number() || !(list[i].get<double>() > 0) ||
        !(list[i].get<double>() <= kMaxPlausibleTimeUs))
      bad_value(item, "a time in microseconds > 0 and at most 1e10", list[i]);
    out.push_back(list[i].get<double>());
  }
  return out;
}

// Each run's median is one of the pooled samples' medians: within the pooled [min, max].
void read_run_medians(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("run_medians_us")) return;
  r.run_medians_us = run_times_at(j, "run_medians_us", where);
  for (std::size_t i = 0; i < r.run_medians_us.size(); ++i)
    if (!at_most(r.time_us.min, r.run_medians_us[i]) || !at_most(r.run_medians_us[i], r.time_us.max))
      throw InputError(member_path(where, "run_medians_us") + "[" + std::to_string(i) +
                       "]: a run's median outside the pooled time_us [min, max]");
}

// Racing's mark: the round it was dropped after (1 to kMaxRaceRounds) and a non-empty reason.
void read_raced_out(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("raced_out")) return;
  const std::string path = member_path(where, "raced_out");
  const json& mark = j["raced_out"];
  if (!mark.is_object()) bad_value(path, "an object {round, reason}", mark);
  for (const auto& item : mark.items())
    if (item.key() != "round" && item.key() != "reason")
      throw InputError(path + ": unknown field " + quote_text(item.key()));
  RacedOut out;
  out.round =
      static_cast<std::size_t>(integer_in(required_field(mark, "round", path), member_path(path, "round"), 1,
                                          static_cast<std::int64_t>(kMaxRaceRounds)));
  out.reason = field_as<std::string>(mark, "reason", path);
  if (out.reason.empty())
    throw InputError(member_path(path, "reason") + ": must say why the setting was dropped");
  r.raced_out = std::move(out);
}

// A block's iterations: with "sample": "block" only, 2 to kMaxBlock.
void read_sample_block(const json& j, const std::string& where, CaseResult& r) {
  const bool block = r.sample_unit == SampleUnit::Block;
  if (!j.contains("sample_block")) {
    if (block)
      throw InputError(member_path(where, "sample_block") +
                       ": a case sampled in blocks says how many iterations each holds");
    return;
  }
  if (!block)
    throw InputError(member_path(where, "sample_block") +
                     ": only a case with \"sample\": \"block\" has blocks");
  r.sample_block = static_cast<std::size_t>(integer_in(
      j.at("sample_block"), member_path(where, "sample_block"), 2, static_cast<std::int64_t>(kMaxBlock)));
}

// Arrivals need one sample per iteration: a batch mean has no last arrival.
void read_arrivals(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("arrivals")) return;
  if (r.sample_unit != SampleUnit::Iteration)
    throw InputError(member_path(where, "arrivals") +
                     ": only a case with per-iteration samples has last arrivals");
  r.arrivals =
      arrivals_from_json(j.at("arrivals"), member_path(where, "arrivals"), r.nranks, r.time_us.count);
}

// Each rank's share of a CPU over the timed loops (the straggler finding's evidence): one number
// from 0 to 1 per rank.
void read_cpu_share(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("cpu_share")) return;
  const std::string path = member_path(where, "cpu_share");
  const json& list = list_at(j["cpu_share"], path);
  if (list.size() != static_cast<std::size_t>(r.nranks))
    throw InputError(path + ": " + std::to_string(list.size()) + " shares for " + std::to_string(r.nranks) +
                     " ranks");
  for (std::size_t i = 0; i < list.size(); ++i)
    r.cpu_share.push_back(number_in(list[i], path + "[" + std::to_string(i) + "]", 0, 1));
}

constexpr std::int64_t kMaxGroupRank = 1 << 24;
constexpr double kMaxGroupGbps = 1e12;  // far above any link, short of infinity

std::vector<int> rank_list_at(const json& j, const char* key, const std::string& where) {
  const std::string path = member_path(where, key);
  const json& list = list_at(required_field(j, key, where), path);
  if (list.empty()) bad_value(path, "a non-empty list", list);
  std::vector<int> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    out.push_back(
        static_cast<int>(integer_in(list[i], path + "[" + std::to_string(i) + "]", 0, kMaxGroupRank)));
    if (i > 0 && out[i] <= out[i - 1]) bad_value(path, "a list in ascending order, each once", list);
  }
  return out;
}

GroupFigure group_figure_at(const json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object {ranks, nodes, time_us, algbw_gbps, busbw_gbps}", j);
  GroupFigure g{
      .ranks = rank_list_at(j, "ranks", where),
      .nodes = rank_list_at(j, "nodes", where),
      .time_us = stats_from_json(required_field(j, "time_us", where), member_path(where, "time_us"))};
  g.algbw_gbps =
      number_in(required_field(j, "algbw_gbps", where), member_path(where, "algbw_gbps"), 0, kMaxGroupGbps);
  g.busbw_gbps =
      number_in(required_field(j, "busbw_gbps", where), member_path(where, "busbw_gbps"), 0, kMaxGroupGbps);
  return g;
}

// A grouped case: its spec ("group") and every group's figures, no rank in two groups.
void read_groups(const json& j, const std::string& where, CaseResult& r) {
  if (!j.contains("groups")) return;
  const std::string path = member_path(where, "groups");
  if (r.spec.group.is_world()) throw InputError(path + ": a case with groups names its \"group\" spec");
  const json& g = j["groups"];
  if (!g.is_object()) bad_value(path, "an object {shape, slowest, busbw_sum_gbps, members}", g);
  CaseGroups out{.shape = field_as<std::string>(g, "shape", path)};
  const json& members = list_at(required_field(g, "members", path), member_path(path, "members"));
  std::vector<int> seen;
  for (std::size_t i = 0; i < members.size(); ++i) {
    out.groups.push_back(
        group_figure_at(members[i], member_path(path, "members") + "[" + std::to_string(i) + "]"));
    seen.insert(seen.end(), out.groups.back().ranks.begin(), out.groups.back().ranks.end());
  }
  std::sort(seen.begin(), seen.end());
  if (out.groups.empty() || std::adjacent_find(seen.begin(), seen.end()) != seen.end())
    throw InputError(member_path(path, "members") + ": one group or more, no rank in two of them");
  out.slowest =
      static_cast<std::size_t>(integer_in(required_field(g, "slowest", path), member_path(path, "slowest"), 0,
                                          static_cast<std::int64_t>(out.groups.size()) - 1));
  out.busbw_sum_gbps =
      number_in(required_field(g, "busbw_sum_gbps", path), member_path(path, "busbw_sum_gbps"), 0,
                kMaxGroupGbps * static_cast<double>(out.groups.size()));
  r.groups = std::move(out);
}

}  // namespace

void read_optional_figures(const json& j, const std::string& where, CaseResult& r) {
  read_raced_out(j, where, r);
  if (j.contains("sample")) r.sample_unit = parse_sample_unit(field_as<std::string>(j, "sample", where));
  read_sample_block(j, where, r);
  if (j.contains("nccl_choice"))
    r.nccl_choice = nccl_choice_from_json(j.at("nccl_choice"), member_path(where, "nccl_choice"));
  read_run_medians(j, where, r);
  read_arrivals(j, where, r);
  read_cpu_share(j, where, r);
  read_groups(j, where, r);
  if (!j.contains("nccl_tests_us")) {
    if (j.contains("nccl_tests_run_us"))
      throw InputError(member_path(where, "nccl_tests_run_us") + ": without nccl_tests_us");
    return;
  }
  r.nccl_tests = LoopFigure{field_as<double>(j, "nccl_tests_us", where),
                            field_as<double>(j, "nccl_tests_algbw_gbps", where),
                            field_as<double>(j, "nccl_tests_busbw_gbps", where)};
  if (!j.contains("nccl_tests_run_us")) return;
  r.run_nccl_tests_us = run_times_at(j, "nccl_tests_run_us", where);
  if (r.run_nccl_tests_us.size() != r.run_medians_us.size())
    throw InputError(member_path(where, "nccl_tests_run_us") + ": " +
                     std::to_string(r.run_nccl_tests_us.size()) + " runs, but run_medians_us has " +
                     std::to_string(r.run_medians_us.size()));
}

}  // namespace commtune
