#pragma once
// The communicators of one worker: the world's, made at init, and one per group spec of the sweep
// (`sweep --groups`), split from it. A case runs on the one its spec names; an error on any of them
// ends them all (the worker's communicators are one unit for its supervisor).
#include <nccl.h>

#include <optional>
#include <string>
#include <vector>

#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

// A communicator of one group spec: this worker's group, its rank in it and its size.
struct GroupCommunicator {
  std::string name;
  ncclComm_t comm = nullptr;
  int rank = 0;
  int nranks = 0;
};

class WorkerComms {
 public:
  WorkerComms() = default;
  ~WorkerComms() { release(); }
  WorkerComms(const WorkerComms&) = delete;
  WorkerComms& operator=(const WorkerComms&) = delete;

  ncclComm_t world() const { return world_; }
  ncclComm_t* world_slot() { return &world_; }  // where ncclCommInitRankConfig puts it
  bool alive() const { return world_ != nullptr; }

  // One ncclCommSplit of the world per entry (this worker's color, `rank` as the key; config
  // inherited from the world). Returns the text of the first failure (the caller aborts them
  // all); nothing on success.
  std::optional<std::string> split(const std::vector<GroupSplit>& splits, int rank);
  // The communicator of group spec `name`; null when none was split for it.
  const GroupCommunicator* group(const std::string& name) const;

  // The first asynchronous error of any communicator, as NCCL's text; nothing while all are healthy.
  std::optional<std::string> async_error() const;
  // Aborts every communicator (never destroys a broken one).
  void abort_all();
  // Finalizes and destroys every communicator (aborting one that does not finalize).
  void release();

 private:
  ncclComm_t world_ = nullptr;
  std::vector<GroupCommunicator> groups_;
};

}  // namespace commtune
