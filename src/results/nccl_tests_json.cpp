#include "results/nccl_tests_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "core/backend_kind.hpp"
#include "core/collective_table.hpp"
#include "core/collective_traits.hpp"
#include "core/json_fields.hpp"
#include "core/plausible_bounds.hpp"
#include "measure/statistics.hpp"
#include "plan/setting.hpp"

namespace commtune {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxBytes = std::int64_t{1} << 50;

struct Program {
  Collective collective;
  const char* name;
};
constexpr std::array<Program, kCollectiveCount> kPrograms{
    {{Collective::AllReduce, "all_reduce_perf"},
     {Collective::AllGather, "all_gather_perf"},
     {Collective::Broadcast, "broadcast_perf"},
     {Collective::ReduceScatter, "reduce_scatter_perf"}}};
static_assert(covers_every_collective(kPrograms), "one nccl-tests program per collective, in enum order");

std::string program_names() {
  std::string out;
  for (const Program& p : kPrograms) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

Collective collective_at(const json& document, const std::string& origin) {
  const json& args = required_field(document, "args", origin);
  const std::string path = origin + ": args";
  if (!args.is_array() || args.empty()) bad_value(path, "the command line, a list of strings", args);
  for (std::size_t i = 0; i < args.size(); ++i)
    value_as<std::string>(args[i], path + "[" + std::to_string(i) + "]");
  const std::string program = args[0].get<std::string>();
  const std::string base =
      program.substr(program.find_last_of('/') == std::string::npos ? 0 : program.find_last_of('/') + 1);
  for (const Program& p : kPrograms)
    if (base == p.name) return p.collective;
  throw InputError(path + "[0]: " + quote_text(base) + " is not a benchmark compare reads (" +
                   program_names() + ")");
}

struct Layout {
  int nranks = 1;
  json provenance = json::object();
};

Layout layout_at(const json& document, const std::string& origin) {
  const std::string where = origin + ": config";
  const json& config = required_field(document, "config", origin);
  if (!config.is_object()) bad_value(where, "an object", config);
  const auto threads = integer_in(required_field(config, "nthreads", where), member_path(where, "nthreads"),
                                  1, kMaxPlausibleCount);
  const auto gpus =
      integer_in(required_field(config, "ngpus", where), member_path(where, "ngpus"), 1, kMaxPlausibleCount);
  const json& devices = required_field(config, "devices", where);
  const std::string at = member_path(where, "devices");
  if (!devices.is_array() || devices.empty()) bad_value(at, "a list of one device per process", devices);
  std::set<std::string> hosts;
  json gpu_models = json::array();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string item = at + "[" + std::to_string(i) + "]";
    hosts.insert(field_as<std::string>(devices[i], "hostname", item));
    gpu_models.push_back(field_as<std::string>(devices[i], "device_info", item));
  }
  const std::int64_t nranks = static_cast<std::int64_t>(devices.size()) * threads * gpus;
  if (nranks > kMaxPlausibleCount)
    throw InputError(where + ": " + std::to_string(nranks) + " ranks is not plausible");
  Layout out;
  out.nranks = static_cast<int>(nranks);
  // As in commtune's provenance, layout counts processes; the cases carry the communicator's ranks.
  out.provenance = {{"nranks", devices.size()}, {"nhosts", hosts.size()}, {"gpus", gpu_models}};
  return out;
}

// "2.19.3" from NCCL's version code (21903; 2.8 and older: 2803).
std::string nccl_version_text(std::int64_t code) {
  if (code >= 10000)
    return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
           std::to_string(code % 100);
  return std::to_string(code / 1000) + "." + std::to_string(code / 100 % 10) + "." +
         std::to_string(code % 100);
}

json provenance_at(const json& document, const std::string& origin, const Layout& layout) {
  json p{{"tool", "nccl-tests"}, {"layout", layout.provenance}};
  if (document.contains("start_time"))
    p["start_time"] = top_field_as<std::string>(document, "start_time", origin);
  p["argv"] = document["args"];
  if (document.contains("nccl_version"))
    p[library_key(BackendKind::Nccl)] = {
        {"version",
         nccl_version_text(integer_in(document["nccl_version"], origin + ": nccl_version", 0, 1'000'000))}};
  if (document.contains("env")) {
    const json& env = document["env"];
    if (!env.is_array()) bad_value(origin + ": env", "a list of NAME=VALUE strings", env);
    json kept = json::object();
    for (std::size_t i = 0; i < env.size(); ++i) {
      const std::string entry = value_as<std::string>(env[i], origin + ": env[" + std::to_string(i) + "]");
      const auto eq = entry.find('=');
      if (entry.rfind("NCCL_", 0) == 0 && eq != std::string::npos)
        kept[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    p["environment"] = kept;
  }
  return p;
}

// A number nccl-tests wrote with "%lf", or the string "nan" it writes for NaN (nullopt).
std::optional<double> figure_at(const json& half, const char* key, const std::string& where, double low,
                                double high) {
  const json& value = required_field(half, key, where);
  if (value.is_string() && value.get<std::string>() == "nan") return std::nullopt;
  return number_in(value, member_path(where, key), low, high);
}

int root_at(const json& row, const std::string& where, Collective c, int nranks) {
  const std::string text = field_as<std::string>(row, "root", where);
  const auto first = text.find_first_not_of(' ');
  int root = 0;
  const char* begin = text.data() + (first == std::string::npos ? text.size() : first);
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), root);
  if (first == std::string::npos || ec != std::errc() || end != text.data() + text.size())
    throw InputError(member_path(where, "root") + ": expected a rank, got " + quote_text(text));
  const bool rooted = traits_of(c).rooted;
  if (rooted && (root < 0 || root >= nranks))
    throw InputError(member_path(where, "root") + ": " + std::to_string(root) + " is not one of the " +
                     std::to_string(nranks) + " ranks");
  return rooted ? root : -1;
}

Case case_at(const json& row, const std::string& where, Collective collective, int nranks) {
  if (!row.is_object()) bad_value(where, "an object", row);
  Case c;
  c.collective = collective;
  c.bytes = static_cast<std::uint64_t>(
      integer_in(required_field(row, "size", where), member_path(where, "size"), 1, kMaxBytes));
  c.count = static_cast<std::size_t>(
      integer_in(required_field(row, "count", where), member_path(where, "count"), 0, kMaxBytes));
  const std::string type = field_as<std::string>(row, "type", where);
  c.dtype = parsed_at(member_path(where, "type"), [&] { return parse_data_type(type); });
  const std::string op = field_as<std::string>(row, "redop", where);
  if (traits_of(collective).reduces)
    c.op = parsed_at(member_path(where, "redop"), [&] { return parse_reduce_op(op); });
  c.root = root_at(row, where, collective, nranks);
  if (c.bytes % size_granularity(collective, c.dtype, nranks) != 0 ||
      buffer_counts(collective, c.bytes, c.dtype, nranks).count != c.count)
    throw InputError(where + ": size " + std::to_string(c.bytes) + " and count " + std::to_string(c.count) +
                     " do not describe " + std::string(name_of(collective)) + " of " +
                     std::string(name_of(c.dtype)) + " on " + std::to_string(nranks) + " ranks");
  return c;
}

// One half of a row: nccl-tests' figures, or a failed case where it wrote NaN.
CaseResult half_at(const json& half, const std::string& where, const Case& spec, int nranks) {
  if (!half.is_object()) bad_value(where, "null or an object with time, alg_bw, bus_bw, nwrong", half);
  if (half.contains("cpu_time") && !half.contains("time"))
    throw InputError(where +
                     ": cpu_time (nccl-tests -C 1) is not nccl-tests' time; compare needs a run without -C");
  CaseResult r;
  r.spec = spec;
  r.setting = kDefaultSettingName;
  r.nranks = nranks;
  const std::optional<double> time = figure_at(half, "time", where, 1e-6, kMaxPlausibleTimeUs);
  const std::optional<double> algbw = figure_at(half, "alg_bw", where, 0, 1e12);
  const std::optional<double> busbw = figure_at(half, "bus_bw", where, 0, 1e12);
  const json& nwrong = required_field(half, "nwrong", where);
  r.wrong = nwrong.is_null()
                ? -1
                : static_cast<std::int64_t>(number_in(nwrong, member_path(where, "nwrong"), 0, 9e15));
  if (!nwrong.is_null() && std::floor(nwrong.get<double>()) != nwrong.get<double>())
    bad_value(member_path(where, "nwrong"), "a whole number of elements", nwrong);
  if (!time) {
    r.status = CaseStatus::Failed;
    r.reason = "nccl-tests reported no time (nan)";
    return r;
  }
  r.nccl_tests = LoopFigure{*time, algbw.value_or(0), busbw.value_or(0)};
  r.time_us = summarize({*time});
  r.pipelined_us = *time;
  r.algbw_gbps = r.nccl_tests->algbw_gbps;
  r.busbw_gbps = r.nccl_tests->busbw_gbps;
  r.status = r.wrong > 0 ? CaseStatus::WrongData : CaseStatus::Ok;
  if (r.wrong > 0)
    r.reason = std::to_string(r.wrong) + " elements differ from the expected result (nccl-tests' #wrong)";
  return r;
}

// `-I 1`: the per-iteration times (max over processes) behind the half's figure.
void read_iterations(const json& row, const char* key, const std::string& where, CaseResult& r) {
  if (!row.contains(key) || row[key].is_null() || r.status == CaseStatus::Failed) return;
  const std::string at = member_path(where, key);
  const json& times = required_field(row[key], "times_us", at);
  if (!times.is_array() || times.empty())
    bad_value(member_path(at, "times_us"), "a list of times in microseconds", times);
  std::vector<double> samples;
  for (std::size_t i = 0; i < times.size(); ++i)
    samples.push_back(number_in(times[i], member_path(at, "times_us") + "[" + std::to_string(i) + "]", 1e-6,
                                kMaxPlausibleTimeUs));
  r.time_us = summarize(samples);
}

using CycleKey = std::tuple<std::uint64_t, DataType, ReduceOp, int, Placement>;

// The cycles of one case (-N) folded into its runs.
CaseResult fold_cycles(const std::vector<CaseResult>& cycles) {
  for (const auto& c : cycles)
    if (c.status != CaseStatus::Ok) return c;
  CaseResult out = cycles.front();
  if (cycles.size() == 1) return out;
  double sum = 0;
  for (const auto& c : cycles) {
    out.run_nccl_tests_us.push_back(c.nccl_tests->time_us);
    out.run_medians_us.push_back(c.time_us.median);
    sum += c.nccl_tests->time_us;
  }
  out.nccl_tests = loop_figure(out.spec, out.nranks, sum / static_cast<double>(cycles.size()) * 1e-6);
  std::vector<double> medians = out.run_medians_us;
  out.time_us = summarize(medians);
  return out;
}

}  // namespace

std::string_view nccl_tests_program(Collective c) { return row_of(kPrograms, c).name; }

bool is_nccl_tests_json(const json& document) {
  return document.is_object() && document.contains("version") && document.contains("results") &&
         !document.contains("schema_version");
}

ResultsDocument nccl_tests_from_json(const json& document, const std::string& origin) {
  const json& version = required_field(document, "version", origin);
  if (!version.is_number_integer() || version != kNcclTestsJsonVersion)
    throw InputError(origin + ": version: nccl-tests JSON version " + describe_json(version) +
                     " is not supported (this commtune reads version " +
                     std::to_string(kNcclTestsJsonVersion) + ")");
  const Collective collective = collective_at(document, origin);
  const Layout layout = layout_at(document, origin);
  ResultsDocument doc;
  doc.schema_version = 0;
  doc.backend = BackendKind::Nccl;
  doc.provenance = provenance_at(document, origin, layout);
  doc.settings = {Setting{kDefaultSettingName, "nccl-tests", {}, {}}};
  doc.complete = true;
  const json& rows = required_field(document, "results", origin);
  if (!rows.is_array()) bad_value(origin + ": results", "a list of results", rows);
  std::map<CycleKey, std::vector<CaseResult>> cycles;
  std::vector<CycleKey> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = origin + ": results[" + std::to_string(i) + "]";
    const Case spec = case_at(rows[i], where, collective, layout.nranks);
    for (const auto& [key, placement, iterations] :
         {std::tuple{"out_of_place", Placement::OutOfPlace, "out_of_place_per_iter"},
          std::tuple{"in_place", Placement::InPlace, "in_place_per_iter"}}) {
      if (!rows[i].contains(key) || rows[i][key].is_null()) continue;
      Case half_spec = spec;
      half_spec.placement = placement;
      CaseResult r = half_at(rows[i][key], member_path(where, key), half_spec, layout.nranks);
      read_iterations(rows[i], iterations, where, r);
      const CycleKey ck{spec.bytes, spec.dtype, spec.op, spec.root, placement};
      if (!cycles.count(ck)) order.push_back(ck);
      cycles[ck].push_back(std::move(r));
    }
  }
  for (const CycleKey& key : order) doc.cases.push_back(fold_cycles(cycles[key]));
  return doc;
}

}  // namespace commtune
