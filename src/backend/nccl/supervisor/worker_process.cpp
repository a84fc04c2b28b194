#include "backend/nccl/supervisor/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/errors.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {
namespace {

std::vector<char*> pointers_to(std::vector<std::string>& texts) {
  std::vector<char*> out;
  for (auto& t : texts) out.push_back(t.data());
  out.push_back(nullptr);
  return out;
}

// Moves fd above the low numbers so that dup2 onto fd 3 in the child is never a no-op that would
// keep FD_CLOEXEC set.
int high_fd(int fd) {
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  if (moved < 0) throw SettingError(std::string("cannot move a worker socket: ") + std::strerror(errno));
  return moved;
}

class SpawnSetup {
 public:
  explicit SpawnSetup(int child_end) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_adddup2(&actions_, child_end, kWorkerChannelFd);
    posix_spawn_file_actions_adddup2(&actions_, STDERR_FILENO, STDOUT_FILENO);  // NCCL logs go to stderr
    posix_spawnattr_init(&attributes_);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes_, &defaults);
    posix_spawnattr_setsigmask(&attributes_, &none);
    posix_spawnattr_setpgroup(&attributes_, 0);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
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
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = strsignal(signal);
    return "was killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
  }
  return "ended with wait status " + std::to_string(status);
}

WorkerProcess::WorkerProcess(const WorkerSpawn& spawn) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw SettingError(std::string("cannot create a worker socket: ") + std::strerror(errno));
  channel_ = ends[0];
  const int child_end = high_fd(ends[1]);
  std::vector<std::string> argv{spawn.executable};
  argv.insert(argv.end(), spawn.arguments.begin(), spawn.arguments.end());
  std::vector<std::string> envp = spawn.environment;
  SpawnSetup setup(child_end);
  const int error = posix_spawn(&pid_, spawn.executable.c_str(), setup.actions(), setup.attributes(),
                                pointers_to(argv).data(), pointers_to(envp).data());
  close(child_end);
  if (error != 0) {
    pid_ = -1;
    close(channel_);
    channel_ = -1;
    throw SettingError("cannot start worker '" + spawn.executable + "': " + std::strerror(error));
  }
  fcntl(channel_, F_SETFL, fcntl(channel_, F_GETFL) | O_NONBLOCK);
}

WorkerProcess::~WorkerProcess() {
  kill_now();
  if (channel_ >= 0) close(channel_);
}

bool WorkerProcess::send(const std::string& line) {
  std::size_t sent = 0;
  while (sent < line.size()) {
    const ssize_t n = ::send(channel_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } else {
      return false;
    }
  }
  return true;
}

bool WorkerProcess::read_available() {
  char chunk[4096];
  while (true) {
    const ssize_t n = ::read(channel_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;  // 0: end-of-file; other errors: the worker is gone too
  }
}

std::optional<std::string> WorkerProcess::take_line() {
  const std::size_t end = buffer_.find('\n');
  if (end == std::string::npos) return std::nullopt;
  std::string line = buffer_.substr(0, end);
  buffer_.erase(0, end + 1);
  return line;
}

std::string WorkerProcess::reap(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return ending_;
  const auto deadline = Clock::now() + grace;
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  ending_ = describe_wait_status(status);
  return ending_;
}

void WorkerProcess::kill_now() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  reap(std::chrono::milliseconds(2000));
}

}  // namespace commtune
