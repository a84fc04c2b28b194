#include "backend/nccl/supervisor/worker_group.hpp"

#include <poll.h>

#include <algorithm>

#include "core/errors.hpp"

namespace commtune {
namespace {

std::string seconds_text(std::chrono::milliseconds timeout) {
  const double seconds = static_cast<double>(timeout.count()) / 1000.0;
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

std::vector<pollfd> pending_fds(const std::vector<std::unique_ptr<WorkerProcess>>& workers,
                                const std::vector<bool>& answered) {
  std::vector<pollfd> fds;
  for (std::size_t i = 0; i < workers.size(); ++i)
    if (!answered[i]) fds.push_back(pollfd{workers[i]->channel(), POLLIN, 0});
  return fds;
}

}  // namespace

WorkerGroup::WorkerGroup(const std::vector<WorkerSpawn>& spawns, std::vector<int> ranks)
    : ranks_(std::move(ranks)) {
  for (const auto& spawn : spawns) workers_.push_back(std::make_unique<WorkerProcess>(spawn));
}

WorkerGroup::~WorkerGroup() { kill_all(); }

StepOutcome WorkerGroup::lost(std::size_t worker, const std::string& step, const std::string& cause) {
  const std::string ending = workers_[worker]->reap(std::chrono::milliseconds(500));
  kill_all();
  return StepOutcome{StepStatus::Failed,
                     "rank " + std::to_string(ranks_[worker]) + " worker " + cause + " during " + step +
                         " (it " + ending + ")",
                     true, ranks_[worker]};
}

StepOutcome WorkerGroup::exchange(const std::vector<std::string>& requests, std::chrono::milliseconds timeout,
                                  const std::string& step, std::vector<WorkerReply>& replies) {
  if (!alive_) return StepOutcome{StepStatus::Failed, "the workers were already stopped", true};
  replies.assign(workers_.size(), WorkerReply{});
  std::vector<bool> answered(workers_.size(), false);
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    const std::string& request = requests.size() == 1 ? requests[0] : requests[i];
    answered[i] = request.empty();
    if (!request.empty() && !workers_[i]->send(request)) return lost(i, step, "was gone");
  }
  return poll_until(Clock::now() + timeout, timeout, step, replies, answered);
}

StepOutcome WorkerGroup::poll_until(Clock::time_point deadline, std::chrono::milliseconds timeout,
                                    const std::string& step, std::vector<WorkerReply>& replies,
                                    std::vector<bool>& answered) {
  StepOutcome outcome;
  while (std::find(answered.begin(), answered.end(), false) != answered.end()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      const std::size_t late =
          static_cast<std::size_t>(std::find(answered.begin(), answered.end(), false) - answered.begin());
      kill_all();
      return StepOutcome{StepStatus::TimedOut,
                         "rank " + std::to_string(ranks_[late]) + " worker did not finish " + step +
                             " within " + seconds_text(timeout) + " (hung; workers killed)",
                         true, ranks_[late]};
    }
    std::vector<pollfd> fds = pending_fds(workers_, answered);
    poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count() + 1, 1000)));
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      if (answered[i]) continue;
      const bool open = workers_[i]->read_available();
      if (std::optional<std::string> line = workers_[i]->take_line()) {
        try {
          replies[i] = parse_reply(*line);
        } catch (const ProtocolError& e) {
          return lost(i, step, std::string("broke the protocol (") + e.what() + ")");
        }
        answered[i] = true;
        if (!replies[i].ok && outcome.ok())
          outcome = StepOutcome{StepStatus::Failed,
                                "rank " + std::to_string(ranks_[i]) + ": " + step + ": " + replies[i].error,
                                replies[i].fatal, ranks_[i]};
        if (!replies[i].ok && replies[i].fatal) {
          kill_all();
          return outcome;
        }
      } else if (!open) {
        return lost(i, step, "ended without answering");
      }
    }
  }
  return outcome;
}

void WorkerGroup::finish(std::chrono::milliseconds grace) {
  if (!alive_) return;
  const std::string line = request_line("finish");
  for (auto& worker : workers_) worker->send(line);
  const auto deadline = Clock::now() + grace;
  for (auto& worker : workers_) {
    const auto left =
        std::max(std::chrono::milliseconds(0),
                 std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    worker->reap(left);
  }
  alive_ = false;
}

void WorkerGroup::kill_all() {
  for (auto& worker : workers_) worker->kill_now();
  alive_ = false;
}

}  // namespace commtune
