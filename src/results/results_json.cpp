#include "results/results_json.hpp"

#include "core/json_fields.hpp"
#include "plan/case_json.hpp"

namespace commtune {

using nlohmann::json;

namespace {

// Fields a backend may add to a measured case; absent when they do not apply, so a results file
// without them reads (and writes) exactly as before.
void put_optional_figures(json& j, const CaseResult& r) {
  if (r.sample_unit != SampleUnit::Iteration) j["sample"] = name_of(r.sample_unit);
  if (!r.nccl_tests) return;
  j["nccl_tests_us"] = r.nccl_tests->time_us;
  j["nccl_tests_algbw_gbps"] = r.nccl_tests->algbw_gbps;
  j["nccl_tests_busbw_gbps"] = r.nccl_tests->busbw_gbps;
}

void read_optional_figures(const json& j, const std::string& where, CaseResult& r) {
  if (j.contains("sample")) r.sample_unit = parse_sample_unit(field_as<std::string>(j, "sample", where));
  if (!j.contains("nccl_tests_us")) return;
  r.nccl_tests = LoopFigure{field_as<double>(j, "nccl_tests_us", where), field_as<double>(j, "nccl_tests_algbw_gbps", where),
                            field_as<double>(j, "nccl_tests_busbw_gbps", where)};
}

}  // namespace

json to_json(const SampleStats& s) {
  return json{{"samples", s.count}, {"median", s.median}, {"mean", s.mean},     {"min", s.min},
              {"max", s.max},       {"p5", s.p5},         {"p95", s.p95},       {"stddev", s.stddev},
              {"cv", s.cv},         {"ci_low", s.median_ci_low}, {"ci_high", s.median_ci_high}};
}

json to_json(const CaseResult& r) {
  json j{{"setting", r.setting}, {"nranks", r.nranks}, {"status", name_of(r.status)}, {"reason", r.reason}, {"wrong", r.wrong}};
  put_case_fields(j, r.spec);
  if (r.measured()) {
    j["time_us"] = to_json(r.time_us);
    j["pipelined_us"] = r.pipelined_us;
    j["algbw_gbps"] = r.algbw_gbps;
    j["busbw_gbps"] = r.busbw_gbps;
    put_optional_figures(j, r);
  }
  return j;
}

json to_json(const Setting& s) {
  json collectives = json::array();
  for (Collective c : s.collectives) collectives.push_back(name_of(c));
  return json{{"name", s.name}, {"description", s.description}, {"knobs", s.knobs}, {"collectives", collectives}};
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
  return json{{"min_bytes", o.sizes.min_bytes}, {"max_bytes", o.sizes.max_bytes}, {"factor", o.sizes.factor},
              {"step_bytes", o.sizes.step_bytes}, {"collectives", collectives}, {"dtype", name_of(o.dtype)},
              {"op", name_of(o.op)}, {"root", o.root}, {"placements", placements}, {"check", o.check},
              {"sampling", stopping}};
}

SampleStats stats_from_json(const json& j, const std::string& where) {
  SampleStats s;
  s.count = field_as<std::size_t>(j, "samples", where);
  s.median = field_as<double>(j, "median", where);
  s.mean = field_as<double>(j, "mean", where);
  s.min = field_as<double>(j, "min", where);
  s.max = field_as<double>(j, "max", where);
  s.p5 = field_as<double>(j, "p5", where);
  s.p95 = field_as<double>(j, "p95", where);
  s.stddev = field_as<double>(j, "stddev", where);
  s.cv = field_as<double>(j, "cv", where);
  s.median_ci_low = field_as<double>(j, "ci_low", where);
  s.median_ci_high = field_as<double>(j, "ci_high", where);
  return s;
}

CaseResult case_from_json(const json& j, const std::string& where) {
  CaseResult r;
  r.setting = field_as<std::string>(j, "setting", where);
  r.spec = case_fields_from_json(j, where);
  r.nranks = field_as<int>(j, "nranks", where);
  r.status = parse_case_status(field_as<std::string>(j, "status", where));
  r.reason = field_as<std::string>(j, "reason", where);
  r.wrong = field_as<std::int64_t>(j, "wrong", where);
  if (r.measured()) {
    r.time_us = stats_from_json(required_field(j, "time_us", where), where + ".time_us");
    r.pipelined_us = field_as<double>(j, "pipelined_us", where);
    r.algbw_gbps = field_as<double>(j, "algbw_gbps", where);
    r.busbw_gbps = field_as<double>(j, "busbw_gbps", where);
    read_optional_figures(j, where, r);
  }
  return r;
}

Setting setting_from_json(const json& j, const std::string& where) {
  Setting s;
  s.name = field_as<std::string>(j, "name", where);
  if (j.contains("description")) s.description = field_as<std::string>(j, "description", where);
  if (j.contains("knobs")) s.knobs = field_as<std::map<std::string, std::string>>(j, "knobs", where);
  if (j.contains("collectives"))
    for (const auto& c : required_field(j, "collectives", where)) s.collectives.push_back(parse_collective(c.get<std::string>()));
  return s;
}

}  // namespace commtune
