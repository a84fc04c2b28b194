#include "backend/nccl/worker_protocol.hpp"

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
  return request;
}

json to_json(const TimedBatch& batch) { return json{{"seconds", batch.seconds}, {"loop_seconds", batch.loop_seconds}}; }

TimedBatch timed_batch_from_json(const json& j) {
  return TimedBatch{j.at("seconds").get<std::vector<double>>(), j.at("loop_seconds").get<double>()};
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
    throw ProtocolError("the worker wrote something that is not a protocol reply: '" + printable(line, 120) + "'");
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
