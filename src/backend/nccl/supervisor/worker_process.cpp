#include "backend/nccl/supervisor/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/errors.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "host/spawn.hpp"

namespace commtune {
namespace {

// Moves fd above the low numbers so that dup2 onto fd 3 in the child is never a no-op that would
// keep FD_CLOEXEC set.
int high_fd(int fd) {
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  if (moved < 0) throw SettingError(std::string("cannot move a worker socket: ") + std::strerror(errno));
  return moved;
}

}  // namespace

WorkerProcess::WorkerProcess(const WorkerSpawn& spawn) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw SettingError(std::string("cannot create a worker socket: ") + std::strerror(errno));
  channel_ = ends[0];
  const int child_end = high_fd(ends[1]);
  std::vector<std::string> argv{spawn.executable};
  argv.insert(argv.end(), spawn.arguments.begin(), spawn.arguments.end());
  SpawnRequest request;
  request.argv = argv;
  request.environment = spawn.environment;
  request.dup2 = {{child_end, kWorkerChannelFd}, {STDERR_FILENO, STDOUT_FILENO}};  // NCCL logs go to stderr
  request.own_process_group = true;
  request.default_signals = true;
  try {
    pid_ = spawn_process(request);
  } catch (const SettingError&) {
    close(child_end);
    close(channel_);
    channel_ = -1;
    throw;
  }
  close(child_end);
  fcntl(channel_, F_SETFL, fcntl(channel_, F_GETFL) | O_NONBLOCK);
}

WorkerProcess::~WorkerProcess() {
  kill_now();
  if (channel_ >= 0) close(channel_);
}

bool WorkerProcess::send(const std::string& line) { return write_all(channel_, line); }

bool WorkerProcess::read_available() {
  ReadStatus status = ReadStatus::Read;
  while ((status = read_some(channel_, buffer_)) == ReadStatus::Read) {
  }
  return status == ReadStatus::Empty;
}

std::optional<std::string> WorkerProcess::take_line() { return buffer_.take_line(); }

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
