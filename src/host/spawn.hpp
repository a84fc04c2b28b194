#pragma once
// Starts a program with posix_spawn: argv (never a shell) and, when given, an explicit
// environment; file descriptors placed where the child expects them. The one place commtune
// starts processes (worker processes, helper programs such as nvidia-smi).
#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace commtune {

struct SpawnRequest {
  std::vector<std::string> argv;                        // argv[0] is the program
  std::optional<std::vector<std::string>> environment;  // NAME=value; nothing: this process's
  bool search_path = false;                             // look argv[0] up in PATH
  std::vector<std::pair<int, int>> dup2;                // (from, to) in the child
  std::vector<int> to_dev_null;                         // child descriptors opened on /dev/null
  bool own_process_group = false;                       // so a terminal's Ctrl-C reaches only us
  bool default_signals = false;                         // SIGPIPE, SIGINT, SIGTERM default, none blocked
};

// The child's pid; throws SettingError naming the program when it cannot start.
pid_t spawn_process(const SpawnRequest& request);

// "exited with status 3", "was killed by signal 11 (Segmentation fault)".
std::string describe_wait_status(int status);

}  // namespace commtune
