#include "results/results_json.hpp"

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

namespace commtune {

using nlohmann::json;

json to_json(const SampleStats& s) {
  return json{{"samples", s.count},
              {"median", s.median},
              {"mean", s.mean},
              {"min", s.min},
              {"max", s.max},
              {"p5", s.p5},
              {"p95", s.p95},
              {"stddev", s.stddev},
              {"cv", s.cv},
              {"ci_low", s.median_ci_low},
              {"ci_high", s.median_ci_high}};
}

json to_json(const CaseResult& r) {
  json j{{"setting", r.setting},
         {"nranks", r.nranks},
         {"status", name_of(r.status)},
         {"reason", r.reason},
         {"wrong", r.wrong}};
  put_case_fields(j, r.spec);
  if (r.measured()) {
    j["time_us"] = to_json(r.time_us);
    j["pipelined_us"] = r.pipelined_us;
    j["algbw_gbps"] = r.algbw_gbps;
    j["busbw_gbps"] = r.busbw_gbps;
    put_optional_figures(j, r);
  }
  if (r.cost) j["cost"] = to_json(*r.cost);
  return j;
}

json to_json(const Setting& s) {
  json collectives = json::array();
  for (Collective c : s.collectives) collectives.push_back(name_of(c));
  return json{
      {"name", s.name}, {"description", s.description}, {"knobs", s.knobs}, {"collectives", collectives}};
}

json to_json(const SweepOptions& o) {
  json collectives = json::array(), placements = json::array();
  for (Collective c : o.collectives) collectives.push_back(name_of(c));
  for (Placement p : o.placements) placements.push_back(name_of(p));
  json stopping{{"warmup", o.stopping.warmup_iterations},
                {"noise_target", o.stopping.target_relative_ci},
                {"min_samples", o.stopping.min_samples},
                {"min_time", o.stopping.min_time_s},
                {"max_time", o.stopping.max_time_s}};
  stopping["iterations"] = o.stopping.fixed_iterations ? json(*o.stopping.fixed_iterations) : json(nullptr);
  json out{{"min_bytes", o.sizes.min_bytes},
           {"max_bytes", o.sizes.max_bytes},
           {"factor", o.sizes.factor},
           {"step_bytes", o.sizes.step_bytes},
           {"collectives", collectives},
           {"dtype", name_of(o.dtype)},
           {"op", name_of(o.op)},
           {"root", o.root},
           {"placements", placements},
           {"check", o.check},
           {"sampling", stopping},
           {"margin", o.decision.margin}};
  if (o.groups.size() != 1 || !o.groups.front().is_world()) {
    out["groups"] = json::array();
    for (const GroupSpec& g : o.groups) out["groups"].push_back(g.name());
  }
  if (o.repeat > 1) out["repeat"] = o.repeat;
  if (o.race.enabled)
    out["racing"] =
        json{{"rounds", o.race.rounds}, {"first_fraction", o.race.first_fraction}, {"growth", o.race.growth}};
  if (o.budget_s) out["budget_s"] = *o.budget_s;
  if (o.contend > 0) out["contend"] = o.contend;
  if (!o.workload_sizes.empty()) {
    json sizes = json::array();
    for (const WorkloadSize& w : o.workload_sizes)
      sizes.push_back({{"collective", name_of(w.collective)},
                       {"bytes", w.bytes},
                       {"group", w.group.name()},
                       {"count", w.count}});
    out["workload"] = json{{"file", o.workload_file}, {"sizes", sizes}};
  }
  return out;
}

namespace {

double time_at(const json& j, const char* key, const std::string& where, double low) {
  const std::string path = member_path(where, key);
  const json& value = required_field(j, key, where);
  if (!value.is_number()) bad_value(path, "a time in microseconds", value);
  const double t = value.get<double>();
  if (low > 0 ? !(t > 0) : !(t >= 0))
    throw InputError(path + ": must be " + (low > 0 ? "> 0" : ">= 0") + ", got " + describe_json(value));
  if (!(t <= kMaxPlausibleTimeUs))
    throw InputError(path + ": " + describe_json(value) + " us is not a plausible time");
  return t;
}

double non_negative_at(const json& j, const char* key, const std::string& where) {
  const json& value = required_field(j, key, where);
  if (!value.is_number() || !(value.get<double>() >= 0))
    bad_value(member_path(where, key), "a number >= 0", value);
  return value.get<double>();
}

// Quantiles and the interval must be in order: min <= p5 <= median <= p95 <= max, ci_low <= median <=
// ci_high.
void check_order(const SampleStats& s, const std::string& where) {
  const std::pair<const char*, double> chain[] = {
      {"min", s.min}, {"p5", s.p5}, {"median", s.median}, {"p95", s.p95}, {"max", s.max}};
  for (std::size_t i = 1; i < std::size(chain); ++i)
    if (!at_most(chain[i - 1].second, chain[i].second))
      throw InputError(where + ": " + chain[i - 1].first + " is above " + chain[i].first);
  if (!at_most(s.median_ci_low, s.median_ci_high))
    throw InputError(where + ": ci_low is above ci_high (an inverted confidence interval)");
  if (!at_most(s.median_ci_low, s.median) || !at_most(s.median, s.median_ci_high))
    throw InputError(where + ": the median lies outside [ci_low, ci_high]");
  if (!at_most(s.min, s.median_ci_low) || !at_most(s.median_ci_high, s.max))
    throw InputError(where + ": [ci_low, ci_high] reaches beyond [min, max]");
  if (!at_most(s.min, s.mean) || !at_most(s.mean, s.max))
    throw InputError(where + ": the mean lies outside [min, max]");
}

// The byte count, element count and root must describe a case that can run on its ranks.
void check_shape(const CaseResult& r, const std::string& where) {
  const Case& c = r.spec;
  const std::size_t grain = size_granularity(c.collective, c.dtype, r.nranks);
  if (c.bytes % grain != 0)
    throw InputError(member_path(where, "bytes") + ": " + std::to_string(c.bytes) +
                     " is not a whole number of " + std::string(name_of(c.dtype)) +
                     " elements per rank (a multiple of " + std::to_string(grain) + ")");
  if (buffer_counts(c.collective, c.bytes, c.dtype, r.nranks).count != c.count)
    throw InputError(member_path(where, "count") + ": " + std::to_string(c.count) + " does not match bytes " +
                     std::to_string(c.bytes) + " of " + std::string(name_of(c.dtype)));
  const bool rooted = traits_of(c.collective).rooted;
  if (rooted ? (c.root < 0 || c.root >= r.nranks) : c.root != -1)
    throw InputError(member_path(where, "root") + ": " + std::to_string(c.root) +
                     (rooted ? " is not one of the " + std::to_string(r.nranks) + " ranks"
                             : std::string(" must be -1 for ") + std::string(name_of(c.collective))));
}

void check_status(const CaseResult& r, const std::string& where) {
  if (r.status == CaseStatus::Ok && r.wrong > 0)
    throw InputError(member_path(where, "wrong") + ": " + std::to_string(r.wrong) +
                     " wrong elements in a case whose status is ok");
  if (r.status == CaseStatus::WrongData && r.wrong <= 0)
    throw InputError(member_path(where, "wrong") +
                     ": a wrong-data case needs a count of wrong elements above 0");
}

}  // namespace

SampleStats stats_from_json(const json& j, const std::string& where) {
  SampleStats s;
  s.count =
      static_cast<std::size_t>(integer_in(required_field(j, "samples", where), member_path(where, "samples"),
                                          1, static_cast<std::int64_t>(kMaxIterations)));
  s.median = time_at(j, "median", where, 1);
  s.mean = time_at(j, "mean", where, 0);
  s.min = time_at(j, "min", where, 0);
  s.max = time_at(j, "max", where, 0);
  s.p5 = time_at(j, "p5", where, 0);
  s.p95 = time_at(j, "p95", where, 0);
  s.stddev = non_negative_at(j, "stddev", where);
  s.cv = non_negative_at(j, "cv", where);
  s.median_ci_low = time_at(j, "ci_low", where, 0);
  s.median_ci_high = time_at(j, "ci_high", where, 0);
  check_order(s, where);
  return s;
}

CaseResult case_from_json(const json& j, const std::string& where) {
  CaseResult r;
  r.setting = field_as<std::string>(j, "setting", where);
  r.spec = case_fields_from_json(j, where);
  r.nranks = static_cast<int>(
      integer_in(required_field(j, "nranks", where), member_path(where, "nranks"), 1, kMaxPlausibleCount));
  const std::string status = field_as<std::string>(j, "status", where);
  r.status = parsed_at(member_path(where, "status"), [&] { return parse_case_status(status); });
  r.reason = field_as<std::string>(j, "reason", where);
  r.wrong = integer_in(required_field(j, "wrong", where), member_path(where, "wrong"), -1,
                       std::numeric_limits<std::int64_t>::max());
  check_shape(r, where);
  check_status(r, where);
  read_case_cost(j, where, r);
  if (r.measured()) {
    r.time_us = stats_from_json(required_field(j, "time_us", where), member_path(where, "time_us"));
    r.pipelined_us = time_at(j, "pipelined_us", where, 0);
    r.algbw_gbps = non_negative_at(j, "algbw_gbps", where);
    r.busbw_gbps = non_negative_at(j, "busbw_gbps", where);
    read_optional_figures(j, where, r);
  } else if (j.contains("raced_out")) {
    throw InputError(member_path(where, "raced_out") + ": only a measured case can be raced out (status " +
                     std::string(name_of(r.status)) + ")");
  }
  return r;
}

Setting setting_from_json(const json& j, const std::string& where) {
  Setting s;
  s.name = field_as<std::string>(j, "name", where);
  if (j.contains("description")) s.description = field_as<std::string>(j, "description", where);
  if (j.contains("knobs")) {
    const json& knobs = j["knobs"];
    if (!knobs.is_object()) bad_value(member_path(where, "knobs"), "an object of NAME: value", knobs);
    for (const auto& knob : knobs.items())
      s.knobs[knob.key()] =
          value_as<std::string>(knob.value(), member_path(member_path(where, "knobs"), knob.key()));
  }
  if (j.contains("collectives")) {
    const json& list = j["collectives"];
    const std::string path = member_path(where, "collectives");
    if (!list.is_array()) bad_value(path, "a list of collectives", list);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string item = path + "[" + std::to_string(i) + "]";
      const std::string name = value_as<std::string>(list[i], item);
      const Collective c = parsed_at(item, [&] { return parse_collective(name); });
      if (std::count(s.collectives.begin(), s.collectives.end(), c) > 0)
        throw InputError(item + ": " + std::string(name_of(c)) + " is listed twice");
      s.collectives.push_back(c);
    }
  }
  return s;
}

}  // namespace commtune
