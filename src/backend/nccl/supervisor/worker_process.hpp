#pragma once
// One worker process seen from its supervisor: started with posix_spawn (argv and an explicit
// environment, never a shell), connected by a socket at the worker's fd 3, in its own process
// group (so a terminal's Ctrl-C reaches the supervisor, which then stops workers in order).
// The supervisor ignores nothing: a worker that dies shows up as end-of-file plus its exit status.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "backend/nccl/line_channel.hpp"

namespace commtune {

using Clock = std::chrono::steady_clock;

struct WorkerSpawn {
  std::string executable;
  std::vector<std::string> arguments;    // argv[1..]
  std::vector<std::string> environment;  // NAME=value, the whole environment of the worker
};

class WorkerProcess {
 public:
  explicit WorkerProcess(const WorkerSpawn& spawn);  // throws SettingError when it cannot start
  ~WorkerProcess();                                  // kills and reaps a worker still running
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }
  int channel() const { return channel_; }
  // Returns false when the worker is gone (its end of the socket is closed).
  bool send(const std::string& line);
  // Reads what is available without blocking; false on end-of-file.
  bool read_available();
  // A complete line received so far, if any.
  std::optional<std::string> take_line();
  // Waits up to `grace` for the worker to exit by itself, then kills it; says how it ended.
  std::string reap(std::chrono::milliseconds grace);
  void kill_now();
  bool running() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
  int channel_ = -1;
  LineBuffer buffer_;
  std::string ending_;  // how the worker ended, once reaped
};

}  // namespace commtune
