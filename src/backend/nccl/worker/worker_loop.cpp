#include "backend/nccl/worker/worker_loop.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace commtune {
namespace {

class LineChannel {
 public:
  explicit LineChannel(int fd) : fd_(fd) {}
  std::optional<std::string> read_line() {
    while (true) {
      const std::size_t end = buffer_.find('\n');
      if (end != std::string::npos) {
        std::string line = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return line;
      }
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  void write_line(const std::string& line) {
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(4);  // the supervisor is gone: nothing left to do
      written += static_cast<std::size_t>(n);
    }
  }

 private:
  int fd_;
  std::string buffer_;
};

[[noreturn]] void hang_forever() {
  while (true) pause();
}

[[noreturn]] void crash() {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  raise(SIGSEGV);
  _exit(139);
}

// Misbehaves as the test fault asks, at the matching request. Returns a reply to send instead of
// doing the request, or nothing to carry on normally.
class FaultInjector {
 public:
  FaultInjector(const std::optional<TestFault>& fault, int rank)
      : active_(fault && fault->applies_to(rank)), fault_(fault.value_or(TestFault{})) {}

  std::optional<std::string> before(const std::string& op, LineChannel& channel) {
    if (!active_) return std::nullopt;
    switch (fault_.mode) {
      case FaultMode::HangInit: if (op == "init") hang_forever(); break;
      case FaultMode::CrashInit: if (op == "init") crash(); break;
      case FaultMode::HangCase: if (op == "time") hang_forever(); break;
      case FaultMode::CrashCase: if (op == "prepare") crash(); break;
      case FaultMode::ExitEarly: if (op == "prepare") _exit(0); break;
      case FaultMode::Garbage:
        if (op == "prepare") channel.write_line("\x01 this is not the protocol {{{\n");
        break;
      case FaultMode::ErrorCase:
        if (op == "prepare" && !fired_) {
          fired_ = true;
          return error_reply_line("simulated NCCL failure: unhandled cuda error (run with NCCL_DEBUG=INFO for details)", false);
        }
        break;
      case FaultMode::SupervisorExit:
      case FaultMode::SupervisorHang: break;
    }
    return std::nullopt;
  }

 private:
  bool active_;
  TestFault fault_;
  bool fired_ = false;
};

std::string dispatch(WorkerEngine& engine, const nlohmann::json& request, const std::string& op) {
  if (op == "probe") return ok_reply_line({{"facts", engine.probe()}});
  if (op == "unique_id") return ok_reply_line({{"unique_id", engine.unique_id()}});
  if (op == "init")
    return ok_reply_line({{"facts", engine.init(request.at("unique_id").get<std::string>(),
                                                comm_config_from_json(request.at("config")))}});
  if (op == "prepare") {
    engine.prepare(case_request_from_json(request.at("case")));
    return ok_reply_line();
  }
  if (op == "check") return ok_reply_line({{"wrong", engine.check()}});
  if (op == "time") return ok_reply_line({{"seconds", engine.time(request.at("iterations").get<std::size_t>())}});
  return error_reply_line("unknown request '" + printable(op) + "'", false);
}

std::string answer(WorkerEngine& engine, const std::string& line, std::string& op) {
  try {
    const nlohmann::json request = nlohmann::json::parse(line);
    op = request.at("op").get<std::string>();
    return dispatch(engine, request, op);
  } catch (const CommunicatorLost& e) {
    return error_reply_line(e.what(), true);
  } catch (const Error& e) {
    return error_reply_line(e.what(), false);
  } catch (const nlohmann::json::exception& e) {
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

}  // namespace

int serve_supervisor(WorkerEngine& engine, const WorkerIdentity& identity, int channel_fd,
                     const std::optional<TestFault>& fault) {
  LineChannel channel(channel_fd);
  FaultInjector faults(fault, identity.rank);
  while (std::optional<std::string> line = channel.read_line()) {
    const std::string requested = op_of(*line);
    if (requested == "finish") {
      engine.finish();
      channel.write_line(ok_reply_line());
      return 0;
    }
    if (std::optional<std::string> injected = faults.before(requested, channel)) {
      channel.write_line(*injected);
      continue;
    }
    std::string op;
    channel.write_line(answer(engine, *line, op));
  }
  engine.finish();
  return 5;  // the supervisor closed the channel without asking to finish
}

}  // namespace commtune
