#include "control/mpi_control_plane.hpp"

#include <algorithm>
#include <vector>

namespace commtune {
namespace {

// Where `rank` sits among the nodes of node_of_each_rank: its node, how many there are, its rank
// among its node's ranks (in rank order, as MPI_Comm_split_type keyed by rank numbers them).
NodeLocality node_locality(const std::vector<int>& nodes, int rank) {
  NodeLocality where;
  where.node = nodes.at(static_cast<std::size_t>(rank));
  where.nnodes = *std::max_element(nodes.begin(), nodes.end()) + 1;
  where.local_rank = static_cast<int>(std::count(nodes.begin(), nodes.begin() + rank, where.node));
  where.local_size = static_cast<int>(std::count(nodes.begin(), nodes.end(), where.node));
  return where;
}

}  // namespace

std::vector<int> node_of_each_rank(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm local;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
  int leader = rank;
  MPI_Bcast(&leader, 1, MPI_INT, 0, local);
  MPI_Comm_free(&local);
  std::vector<int> leaders(static_cast<std::size_t>(size));
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<int> nodes;
  for (int l : leaders)
    nodes.push_back(
        static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), l) - distinct.begin()));
  return nodes;
}

MpiControlPlane::MpiControlPlane() {
  MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  locality_ = node_locality(node_of_each_rank(comm_), rank_);
}

MpiControlPlane::~MpiControlPlane() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::string MpiControlPlane::broadcast_from(int root, const std::string& text) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm_);
  std::string out = rank_ == root ? text : std::string(length, '\0');
  MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, root, comm_);
  return out;
}

std::optional<std::string> MpiControlPlane::agree_on_failure(const std::optional<std::string>& local) {
  int failing = local ? rank_ : size_;
  MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, comm_);
  if (failing == size_) return std::nullopt;
  const std::string reason = broadcast_from(failing, local.value_or(""));
  return size_ > 1 ? "rank " + std::to_string(failing) + ": " + reason : reason;
}

bool MpiControlPlane::any(bool local) {
  int flag = local ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_MAX, comm_);
  return flag != 0;
}

std::vector<std::string> MpiControlPlane::gather_to_root(const std::string& local) {
  int length = static_cast<int>(local.size());
  std::vector<int> lengths(rank_ == 0 ? size_ : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm_);
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm_);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return out;
}

std::string MpiControlPlane::broadcast_from_root(const std::string& text) { return broadcast_from(0, text); }

}  // namespace commtune
