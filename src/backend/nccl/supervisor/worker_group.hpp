#pragma once
// The watchdog: the workers of one supervisor for one setting, asked in lock step. Every request
// has a deadline; a worker that misses it, dies, or writes something that is not the protocol is
// killed together with its group (its peers may be stuck in a collective with it), and the
// outcome names the rank, the step and the cause.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "backend/nccl/supervisor/step_outcome.hpp"
#include "backend/nccl/supervisor/worker_process.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

class WorkerGroup {
 public:
  // ranks[i] is the global rank of the worker spawned from spawns[i]. Throws SettingError.
  WorkerGroup(const std::vector<WorkerSpawn>& spawns, std::vector<int> ranks);
  ~WorkerGroup();
  WorkerGroup(const WorkerGroup&) = delete;
  WorkerGroup& operator=(const WorkerGroup&) = delete;

  std::size_t size() const { return workers_.size(); }
  int rank_of(std::size_t worker) const { return ranks_[worker]; }
  bool alive() const { return alive_; }

  // Sends requests[i] to worker i (a single request goes to every worker; an empty one to none)
  // and collects one reply
  // from each before `timeout`. Error replies are gathered; a lost worker ends the step at once.
  StepOutcome exchange(const std::vector<std::string>& requests, std::chrono::milliseconds timeout,
                       const std::string& step, std::vector<WorkerReply>& replies);
  // Asks every worker to finish, waits up to `grace`, kills what is left.
  void finish(std::chrono::milliseconds grace);
  void kill_all();

 private:
  StepOutcome lost(std::size_t worker, const std::string& step, const std::string& cause);
  StepOutcome poll_until(Clock::time_point deadline, std::chrono::milliseconds timeout,
                         const std::string& step, std::vector<WorkerReply>& replies,
                         std::vector<bool>& answered);

  std::vector<std::unique_ptr<WorkerProcess>> workers_;
  std::vector<int> ranks_;
  bool alive_ = true;
};

}  // namespace commtune
