#include "host/spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstring>

#include "core/errors.hpp"

extern char** environ;

namespace commtune {
namespace {

std::vector<char*> pointers_to(std::vector<std::string>& texts) {
  std::vector<char*> out;
  for (auto& t : texts) out.push_back(t.data());
  out.push_back(nullptr);
  return out;
}

class SpawnSetup {
 public:
  explicit SpawnSetup(const SpawnRequest& request) {
    posix_spawn_file_actions_init(&actions_);
    for (const auto& [from, to] : request.dup2) posix_spawn_file_actions_adddup2(&actions_, from, to);
    for (int fd : request.to_dev_null)
      posix_spawn_file_actions_addopen(&actions_, fd, "/dev/null", O_RDWR, 0);
    posix_spawnattr_init(&attributes_);
    short flags = 0;
    if (request.default_signals) flags |= set_default_signals();
    if (request.own_process_group) {
      posix_spawnattr_setpgroup(&attributes_, 0);
      flags |= POSIX_SPAWN_SETPGROUP;
    }
    posix_spawnattr_setflags(&attributes_, flags);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attributes() const { return &attributes_; }

 private:
  short set_default_signals() {
    sigset_t defaults, none;
    sigemptyset(&defaults);
    for (int signal : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&defaults, signal);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes_, &defaults);
    posix_spawnattr_setsigmask(&attributes_, &none);
    return POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  }

  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

}  // namespace

pid_t spawn_process(const SpawnRequest& request) {
  if (request.argv.empty()) throw SettingError("cannot start a program: empty argv");
  std::vector<std::string> argv = request.argv;
  std::vector<std::string> environment = request.environment.value_or(std::vector<std::string>{});
  char** envp = request.environment ? nullptr : environ;
  std::vector<char*> env_pointers = pointers_to(environment);
  SpawnSetup setup(request);
  pid_t pid = -1;
  const auto spawn = request.search_path ? posix_spawnp : posix_spawn;
  const int error = spawn(&pid, argv[0].c_str(), setup.actions(), setup.attributes(),
                          pointers_to(argv).data(), envp ? envp : env_pointers.data());
  if (error != 0) throw SettingError("cannot start '" + request.argv[0] + "': " + std::strerror(error));
  return pid;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = strsignal(signal);
    return "was killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
  }
  return "ended with wait status " + std::to_string(status);
}

}  // namespace commtune
