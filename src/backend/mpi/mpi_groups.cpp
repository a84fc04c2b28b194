#include "backend/mpi/mpi_groups.hpp"

#include <algorithm>

#include "backend/mpi/mpi_types.hpp"
#include "core/errors.hpp"

namespace commtune {

void GroupTally::add(const std::vector<double>& durations, MPI_Comm control) {
  int rank = 0, size = 1;
  MPI_Comm_rank(control, &rank);
  MPI_Comm_size(control, &size);
  const std::size_t n = durations.size();
  std::vector<double> all(rank == 0 ? n * static_cast<std::size_t>(size) : 0);
  MPI_Gather(durations.data(), static_cast<int>(n), MPI_DOUBLE, all.data(), static_cast<int>(n), MPI_DOUBLE,
             0, control);
  if (rank != 0) return;
  for (std::size_t g = 0; g < layout_.groups.size(); ++g)
    for (std::size_t i = 0; i < n; ++i) {
      double slowest = 0;
      for (int r : layout_.groups[g].ranks)
        slowest = std::max(slowest, all[static_cast<std::size_t>(r) * n + i]);
      seconds_[g].push_back(slowest);
    }
}

// The node of every rank of `comm`, numbered in order of each node's lowest rank (MPI's locality:
// the ranks that can share memory), as the control plane numbers them.
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

// One communicator per group spec other than world, split from the world by the spec's colors
// while the setting's variables are in force (so that each carries them, as the duplicate does).
std::vector<GroupComm> split_groups(const SweepOptions& options, const std::vector<int>& nodes) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<GroupComm> groups;
  for (const GroupSpec& spec : options.groups) {
    if (spec.is_world()) continue;
    GroupComm g{.layout = layout_groups(spec, nodes)};
    const int color = g.layout.group_of_rank.at(static_cast<std::size_t>(rank));
    const int code = MPI_Comm_split(MPI_COMM_WORLD, color, rank, &g.comm);
    if (code != MPI_SUCCESS) {
      for (GroupComm& made : groups) MPI_Comm_free(&made.comm);
      throw SettingError("MPI_Comm_split for group spec '" + spec.name() +
                         "' failed: " + mpi_error_text(code));
    }
    MPI_Comm_set_errhandler(g.comm, MPI_ERRORS_RETURN);
    groups.push_back(std::move(g));
  }
  return groups;
}

}  // namespace commtune
