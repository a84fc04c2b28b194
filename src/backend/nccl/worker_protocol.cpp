#include "backend/nccl/worker_protocol.hpp"

#include <algorithm>
#include <cmath>

#include "plan/case_json.hpp"

namespace commtune {

using nlohmann::json;

json to_json(const CommConfig& config) {
  json j = json::object();
  if (config.min_ctas) j["min_ctas"] = *config.min_ctas;
  if (config.max_ctas) j["max_ctas"] = *config.max_ctas;
  if (!config.net_name.empty()) j["net_name"] = config.net_name;
  return j;
}

CommConfig comm_config_from_json(const json& j) {
  CommConfig config;
  if (j.contains("min_ctas")) config.min_ctas = j.at("min_ctas").get<int>();
  if (j.contains("max_ctas")) config.max_ctas = j.at("max_ctas").get<int>();
  config.net_name = j.value("net_name", "");
  return config;
}

json to_json(const CaseRequest& request) {
  json j{{"index", request.spec.index}, {"check", request.check}, {"graph", request.graph}};
  if (request.largest_bytes > 0) j["largest_bytes"] = request.largest_bytes;
  if (request.contend > 0) j["contend"] = request.contend;
  put_case_fields(j, request.spec);
  return j;
}

CaseRequest case_request_from_json(const json& j) {
  CaseRequest request;
  const std::size_t index = j.at("index").get<std::size_t>();
  request.spec = case_fields_from_json(j, "malformed request: case");
  request.spec.index = index;
  request.check = j.at("check").get<bool>();
  request.graph = j.at("graph").get<bool>();
  request.largest_bytes = j.value("largest_bytes", std::uint64_t{0});
  request.contend = j.value("contend", 0.0);
  if (!(request.contend >= 0 && request.contend <= 1)) throw ProtocolError("case: contend outside [0, 1]");
  return request;
}

json to_json(const SplitRequest& request) {
  json list = json::array();
  for (const GroupSplit& s : request.groups)
    list.push_back({{"name", s.name}, {"color", s.color}, {"ranks", s.ranks}, {"nodes", s.nodes}});
  return {{"groups", list}, {"world_nodes", request.world_nodes}};
}

SplitRequest split_request_from_json(const json& j) {
  SplitRequest request{.groups = {}, .world_nodes = j.at("world_nodes").get<int>()};
  for (const json& entry : j.at("groups")) {
    GroupSplit s{.name = entry.at("name").get<std::string>(),
                 .color = entry.at("color").get<std::uint32_t>(),
                 .ranks = entry.at("ranks").get<std::vector<int>>(),
                 .nodes = entry.at("nodes").get<int>()};
    if (s.name.empty() || s.ranks.size() < 2 || s.nodes < 1)
      throw ProtocolError("split: group '" + printable(s.name) + "' of " + std::to_string(s.ranks.size()) +
                          " ranks on " + std::to_string(s.nodes) + " nodes");
    request.groups.push_back(std::move(s));
  }
  return request;
}

json to_json(const StepsRequest& request) {
  json calls = json::array();
  for (const StepCallRequest& call : request.calls) {
    json c = to_json(CaseRequest{.spec = call.spec, .check = false, .graph = false, .largest_bytes = 0});
    c["repeat"] = call.repeat;
    calls.push_back(c);
  }
  return {
      {"calls", calls}, {"steps", request.steps}, {"warmup", request.warmup}, {"contend", request.contend}};
}

StepsRequest steps_request_from_json(const json& j) {
  StepsRequest request{.calls = {},
                       .steps = j.at("steps").get<std::size_t>(),
                       .warmup = j.at("warmup").get<std::size_t>(),
                       .contend = j.value("contend", 0.0)};
  for (const json& c : j.at("calls"))
    request.calls.push_back(
        {.spec = case_request_from_json(c).spec, .repeat = c.at("repeat").get<std::uint64_t>()});
  const bool no_repeat = std::any_of(request.calls.begin(), request.calls.end(),
                                     [](const StepCallRequest& c) { return c.repeat == 0; });
  if (request.calls.empty() || request.steps == 0 || no_repeat ||
      !(request.contend >= 0 && request.contend <= 1))
    throw ProtocolError("steps: " + std::to_string(request.calls.size()) + " calls, " +
                        std::to_string(request.steps) + " steps" +
                        (no_repeat ? ", a call repeated 0 times" : ""));
  return request;
}

json to_json(const ReplayedSteps& steps) {
  return {{"step_seconds", steps.step_seconds}, {"call_seconds", steps.call_seconds}};
}

ReplayedSteps replayed_steps_from_json(const json& j) {
  ReplayedSteps steps{.step_seconds = j.at("step_seconds").get<std::vector<double>>(),
                      .call_seconds = j.at("call_seconds").get<std::vector<std::vector<double>>>()};
  const auto bad = [](double s) { return !std::isfinite(s) || s < 0; };
  bool wrong = std::any_of(steps.step_seconds.begin(), steps.step_seconds.end(), bad);
  for (const auto& call : steps.call_seconds)
    wrong = wrong || call.size() != steps.step_seconds.size() || std::any_of(call.begin(), call.end(), bad);
  if (wrong) throw ProtocolError("replayed steps: counts that differ or a time that is not a number >= 0");
  return steps;
}

json to_json(const TimedBatch& batch) {
  json j{{"seconds", batch.seconds}, {"loop_seconds", batch.loop_seconds}};
  if (batch.cpu_seconds && batch.wall_seconds)
    j["cpu_s"] = *batch.cpu_seconds, j["wall_s"] = *batch.wall_seconds;
  return j;
}

std::string time_request_line(std::size_t iterations, std::size_t block) {
  if (block <= 1) return request_line("time", {{"iterations", iterations}});
  return request_line("time", {{"iterations", iterations}, {"block", block}});
}

std::size_t time_block_of(const json& request) {
  const std::size_t block = request.value("block", std::size_t{1});
  const std::size_t iterations = request.at("iterations").get<std::size_t>();
  if (block < 1 || block > kMaxTimeBlock || iterations % block != 0)
    throw ProtocolError("time: block " + std::to_string(block) + " for " + std::to_string(iterations) +
                        " iterations");
  return block;
}

TimedBatch timed_batch_from_json(const json& j) {
  TimedBatch batch{j.at("seconds").get<std::vector<double>>(), j.at("loop_seconds").get<double>()};
  if (j.contains("cpu_s") || j.contains("wall_s")) {
    batch.cpu_seconds = j.at("cpu_s").get<double>();
    batch.wall_seconds = j.at("wall_s").get<double>();
    if (!(*batch.cpu_seconds >= 0) || !(*batch.wall_seconds >= 0))
      throw ProtocolError("timed batch: negative or non-finite CPU or wall seconds");
  }
  return batch;
}

json to_json(const PairwiseRequest& r) {
  return json{{"peer", r.peer},
              {"bytes", r.bytes},
              {"samples", r.samples},
              {"exchanges", r.exchanges},
              {"latency_exchanges", r.latency_exchanges}};
}

namespace {

int positive_count(const json& j, const char* field) {
  const int value = j.at(field).get<int>();
  if (value < 1 || value > 100000)
    throw ProtocolError(std::string("pairwise request: \"") + field + "\" must be 1 to 100000");
  return value;
}

std::vector<double> positive_samples(const json& j, const char* field) {
  std::vector<double> values = j.at(field).get<std::vector<double>>();
  for (double v : values)
    if (!std::isfinite(v) || v <= 0)
      throw ProtocolError(std::string("pairwise samples: \"") + field +
                          "\" holds a value that is not a positive number");
  return values;
}

}  // namespace

PairwiseRequest pairwise_request_from_json(const json& j) {
  PairwiseRequest r;
  r.peer = j.at("peer").get<int>();
  if (r.peer < -1) throw ProtocolError("pairwise request: \"peer\" must be a rank or -1");
  r.bytes = j.at("bytes").get<std::size_t>();
  if (r.bytes == 0 || r.bytes > (std::size_t{1} << 34))
    throw ProtocolError("pairwise request: \"bytes\" must be 1 B to 16 GiB");
  r.samples = positive_count(j, "samples");
  r.exchanges = positive_count(j, "exchanges");
  r.latency_exchanges = positive_count(j, "latency_exchanges");
  return r;
}

json to_json(const PairSamples& s) { return json{{"gbps", s.gbps}, {"latency_us", s.latency_us}}; }

PairSamples pair_samples_from_json(const json& j) {
  PairSamples s{positive_samples(j, "gbps"), positive_samples(j, "latency_us")};
  if (s.gbps.size() != s.latency_us.size())
    throw ProtocolError("pairwise samples: as many latency as bandwidth samples expected");
  return s;
}

std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  for (char c : text.substr(0, limit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out;
}

std::string request_line(std::string_view op, json fields) {
  fields["op"] = op;
  return fields.dump() + "\n";
}

WorkerReply parse_reply(std::string_view line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception&) {
    throw ProtocolError("the worker wrote something that is not a protocol reply: '" + printable(line, 120) +
                        "'");
  }
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean())
    throw ProtocolError("the worker's reply has no \"ok\" flag: '" + printable(line, 120) + "'");
  WorkerReply reply;
  reply.ok = j["ok"].get<bool>();
  if (!reply.ok) {
    reply.error = printable(j.value("error", std::string("the worker reported an unnamed error")), 2000);
    reply.fatal = j.value("fatal", true);
  }
  reply.body = std::move(j);
  return reply;
}

std::string ok_reply_line(json fields) {
  fields["ok"] = true;
  return fields.dump() + "\n";
}

std::string error_reply_line(std::string_view error, bool fatal) {
  return json{{"ok", false}, {"error", error}, {"fatal", fatal}}.dump() + "\n";
}

}  // namespace commtune
