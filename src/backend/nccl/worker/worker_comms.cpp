#include "backend/nccl/worker/worker_comms.hpp"

#include "backend/nccl/worker/nccl_check.hpp"

namespace commtune {
namespace {

// Blocking finalize waits for outstanding work; destroy only a communicator that finalized.
void end_comm(ncclComm_t comm) {
  if (comm == nullptr) return;
  if (ncclCommFinalize(comm) == ncclSuccess)
    ncclCommDestroy(comm);
  else
    ncclCommAbort(comm);
}

std::optional<std::string> comm_error(ncclComm_t comm, const std::string& which) {
  ncclResult_t state = ncclSuccess;
  const ncclResult_t queried = ncclCommGetAsyncError(comm, &state);
  if (queried != ncclSuccess) return which + nccl_error_text(queried, comm);
  if (state != ncclSuccess) return which + nccl_error_text(state, comm);
  return std::nullopt;
}

// The split's communicator, checked against what the supervisor planned.
std::optional<std::string> made_group(const GroupSplit& s, int rank, ncclComm_t comm,
                                      GroupCommunicator& out) {
  int nranks = 0, own = -1;
  ncclCommCount(comm, &nranks);
  ncclCommUserRank(comm, &own);
  int expected = 0;
  while (expected < static_cast<int>(s.ranks.size()) && s.ranks[static_cast<std::size_t>(expected)] != rank)
    ++expected;
  if (nranks != static_cast<int>(s.ranks.size()) || own != expected)
    return "ncclCommSplit (group spec '" + s.name + "'): rank " + std::to_string(own) + " of " +
           std::to_string(nranks) + ", planned rank " + std::to_string(expected) + " of " +
           std::to_string(s.ranks.size());
  out = GroupCommunicator{.name = s.name, .comm = comm, .rank = own, .nranks = nranks};
  return std::nullopt;
}

}  // namespace

std::optional<std::string> WorkerComms::split(const std::vector<GroupSplit>& splits, int rank) {
  for (const GroupSplit& s : splits) {
    ncclComm_t comm = nullptr;
    const ncclResult_t result = ncclCommSplit(world_, static_cast<int>(s.color), rank, &comm, nullptr);
    if (result != ncclSuccess)
      return "ncclCommSplit (group spec '" + s.name + "'): " + nccl_error_text(result, world_);
    GroupCommunicator made;
    if (std::optional<std::string> wrong = made_group(s, rank, comm, made)) {
      ncclCommAbort(comm);
      return wrong;
    }
    groups_.push_back(made);
  }
  return std::nullopt;
}

const GroupCommunicator* WorkerComms::group(const std::string& name) const {
  for (const GroupCommunicator& g : groups_)
    if (g.name == name) return &g;
  return nullptr;
}

std::optional<std::string> WorkerComms::async_error() const {
  if (world_ != nullptr)
    if (std::optional<std::string> error = comm_error(world_, "")) return error;
  for (const GroupCommunicator& g : groups_)
    if (std::optional<std::string> error = comm_error(g.comm, "group spec '" + g.name + "': ")) return error;
  return std::nullopt;
}

void WorkerComms::abort_all() {
  for (GroupCommunicator& g : groups_) ncclCommAbort(g.comm);
  groups_.clear();
  if (world_ != nullptr) ncclCommAbort(world_);
  world_ = nullptr;
}

void WorkerComms::release() {
  for (GroupCommunicator& g : groups_) end_comm(g.comm);
  groups_.clear();
  end_comm(world_);
  world_ = nullptr;
}

}  // namespace commtune
