#include "backend/nccl/worker/worker_loop.hpp"

#include <unistd.h>

#include <optional>
#include <string>

#include "backend/nccl/line_channel.hpp"

namespace commtune {
namespace {

std::string dispatch(WorkerEngine& engine, const nlohmann::json& request, const std::string& op) {
  if (op == "probe") return ok_reply_line({{"facts", engine.probe()}});
  if (op == "unique_id") return ok_reply_line({{"unique_id", engine.unique_id()}});
  if (op == "init")
    return ok_reply_line({{"facts", engine.init(request.at("unique_id").get<std::string>(),
                                                comm_config_from_json(request.at("config")))}});
  if (op == "split") {
    engine.split(split_request_from_json(request));
    return ok_reply_line();
  }
  if (op == "prepare") {
    engine.prepare(case_request_from_json(request.at("case")));
    return ok_reply_line();
  }
  if (op == "release") {
    engine.release_case();
    return ok_reply_line();
  }
  if (op == "check") return ok_reply_line({{"wrong", engine.check()}});
  if (op == "time")
    return ok_reply_line(
        to_json(engine.time(request.at("iterations").get<std::size_t>(), time_block_of(request))));
  if (op == "steps") return ok_reply_line(to_json(engine.replay(steps_request_from_json(request))));
  if (op == "pairwise") return ok_reply_line(to_json(engine.pairwise(pairwise_request_from_json(request))));
  return error_reply_line("unknown request '" + printable(op) + "'", false);
}

std::string answer(WorkerEngine& engine, const std::string& line) {
  try {
    const nlohmann::json request = nlohmann::json::parse(line);
    return dispatch(engine, request, request.at("op").get<std::string>());
  } catch (const CommunicatorLost& e) {
    return error_reply_line(e.what(), true);
  } catch (const Error& e) {
    return error_reply_line(e.what(), false);
  } catch (const nlohmann::json::exception& e) {
    return error_reply_line(std::string("malformed request: ") + e.what(), false);
  } catch (const ProtocolError& e) {
    return error_reply_line(std::string("malformed request: ") + e.what(), false);
  } catch (const std::exception& e) {
    return error_reply_line(e.what(), true);
  }
}

std::string op_of(const std::string& line) {
  try {
    return nlohmann::json::parse(line).at("op").get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

// Blocks until a whole request line has arrived; nothing when the supervisor is gone.
std::optional<std::string> next_request(int channel, LineBuffer& buffer) {
  while (true) {
    if (std::optional<std::string> line = buffer.take_line()) return line;
    if (read_some(channel, buffer) != ReadStatus::Read) return std::nullopt;
  }
}

void reply(int channel, const std::string& line) {
  if (!write_all(channel, line)) _exit(4);  // the supervisor is gone: nothing left to do
}

}  // namespace

int serve_supervisor(WorkerEngine& engine, int channel) {
  LineBuffer buffer;
  while (std::optional<std::string> line = next_request(channel, buffer)) {
    if (op_of(*line) == "finish") {
      engine.finish();
      reply(channel, ok_reply_line());
      return 0;
    }
    reply(channel, answer(engine, *line));
  }
  engine.finish();
  return 5;  // the supervisor closed the channel without asking to finish
}

}  // namespace commtune
