#include "results/results_json.hpp"

#include "core/errors.hpp"

namespace commtune {

using nlohmann::json;

namespace {

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw InputError(where + ": missing field '" + key + "'");
  return j.at(key);
}

template <typename T>
T get(const json& j, const char* key, const std::string& where) {
  try {
    return field(j, key, where).get<T>();
  } catch (const json::exception&) {
    throw InputError(where + ": field '" + key + "' has the wrong type");
  }
}

}  // namespace

json to_json(const SampleStats& s) {
  return json{{"samples", s.count}, {"median", s.median}, {"mean", s.mean},     {"min", s.min},
              {"max", s.max},       {"p5", s.p5},         {"p95", s.p95},       {"stddev", s.stddev},
              {"cv", s.cv},         {"ci_low", s.median_ci_low}, {"ci_high", s.median_ci_high}};
}

json to_json(const CaseResult& r) {
  json j{{"setting", r.setting},
         {"collective", name_of(r.spec.collective)},
         {"bytes", r.spec.bytes},
         {"count", r.spec.count},
         {"dtype", name_of(r.spec.dtype)},
         {"op", name_of(r.spec.op)},
         {"root", r.spec.root},
         {"placement", name_of(r.spec.placement)},
         {"nranks", r.nranks},
         {"status", name_of(r.status)},
         {"reason", r.reason},
         {"wrong", r.wrong}};
  if (r.measured()) {
    j["time_us"] = to_json(r.time_us);
    j["pipelined_us"] = r.pipelined_us;
    j["algbw_gbps"] = r.algbw_gbps;
    j["busbw_gbps"] = r.busbw_gbps;
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
  s.count = get<std::size_t>(j, "samples", where);
  s.median = get<double>(j, "median", where);
  s.mean = get<double>(j, "mean", where);
  s.min = get<double>(j, "min", where);
  s.max = get<double>(j, "max", where);
  s.p5 = get<double>(j, "p5", where);
  s.p95 = get<double>(j, "p95", where);
  s.stddev = get<double>(j, "stddev", where);
  s.cv = get<double>(j, "cv", where);
  s.median_ci_low = get<double>(j, "ci_low", where);
  s.median_ci_high = get<double>(j, "ci_high", where);
  return s;
}

CaseResult case_from_json(const json& j, const std::string& where) {
  CaseResult r;
  r.setting = get<std::string>(j, "setting", where);
  r.spec.collective = parse_collective(get<std::string>(j, "collective", where));
  r.spec.bytes = get<std::uint64_t>(j, "bytes", where);
  r.spec.count = get<std::size_t>(j, "count", where);
  r.spec.dtype = parse_data_type(get<std::string>(j, "dtype", where));
  r.spec.op = parse_reduce_op(get<std::string>(j, "op", where));
  r.spec.root = get<int>(j, "root", where);
  r.spec.placement = parse_placement(get<std::string>(j, "placement", where));
  r.nranks = get<int>(j, "nranks", where);
  r.status = parse_case_status(get<std::string>(j, "status", where));
  r.reason = get<std::string>(j, "reason", where);
  r.wrong = get<std::int64_t>(j, "wrong", where);
  if (r.measured()) {
    r.time_us = stats_from_json(field(j, "time_us", where), where + ".time_us");
    r.pipelined_us = get<double>(j, "pipelined_us", where);
    r.algbw_gbps = get<double>(j, "algbw_gbps", where);
    r.busbw_gbps = get<double>(j, "busbw_gbps", where);
  }
  return r;
}

Setting setting_from_json(const json& j, const std::string& where) {
  Setting s;
  s.name = get<std::string>(j, "name", where);
  if (j.contains("description")) s.description = get<std::string>(j, "description", where);
  if (j.contains("knobs")) s.knobs = get<std::map<std::string, std::string>>(j, "knobs", where);
  if (j.contains("collectives"))
    for (const auto& c : field(j, "collectives", where)) s.collectives.push_back(parse_collective(c.get<std::string>()));
  return s;
}

}  // namespace commtune
