#include "host/program_output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/errors.hpp"
#include "host/spawn.hpp"

namespace commtune {
namespace {

bool start(const std::vector<std::string>& argv, int out_fd, pid_t& pid) {
  SpawnRequest request;
  request.argv = argv;
  request.search_path = true;
  request.dup2 = {{out_fd, STDOUT_FILENO}};
  request.to_dev_null = {STDERR_FILENO};
  try {
    pid = spawn_process(request);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::optional<std::string> program_output(const std::vector<std::string>& argv,
                                          std::chrono::milliseconds timeout) {
  int ends[2];
  if (argv.empty() || pipe2(ends, O_CLOEXEC) != 0) return std::nullopt;
  pid_t pid = -1;
  const bool started = start(argv, ends[1], pid);
  close(ends[1]);
  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool complete = false;
  while (started && std::chrono::steady_clock::now() < deadline) {
    pollfd fd{ends[0], POLLIN, 0};
    poll(&fd, 1, 100);
    char chunk[4096];
    const ssize_t n = (fd.revents != 0) ? read(ends[0], chunk, sizeof chunk) : -1;
    if (n == 0) {
      complete = true;
      break;
    }
    if (n > 0) output.append(chunk, static_cast<std::size_t>(n));
  }
  close(ends[0]);
  if (!started) return std::nullopt;
  if (!complete) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!complete || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return output;
}

}  // namespace commtune
