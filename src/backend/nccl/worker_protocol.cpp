#include "backend/nccl/worker_protocol.hpp"

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
  const Case& c = request.spec;
  return json{{"index", c.index},
              {"collective", name_of(c.collective)},
              {"bytes", c.bytes},
              {"count", c.count},
              {"dtype", name_of(c.dtype)},
              {"op", name_of(c.op)},
              {"root", c.root},
              {"placement", name_of(c.placement)},
              {"check", request.check},
              {"graph", request.graph}};
}

CaseRequest case_request_from_json(const json& j) {
  CaseRequest request;
  Case& c = request.spec;
  c.index = j.at("index").get<std::size_t>();
  c.collective = parse_collective(j.at("collective").get<std::string>());
  c.bytes = j.at("bytes").get<std::uint64_t>();
  c.count = j.at("count").get<std::size_t>();
  c.dtype = parse_data_type(j.at("dtype").get<std::string>());
  c.op = parse_reduce_op(j.at("op").get<std::string>());
  c.root = j.at("root").get<int>();
  c.placement = parse_placement(j.at("placement").get<std::string>());
  request.check = j.at("check").get<bool>();
  request.graph = j.at("graph").get<bool>();
  return request;
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
