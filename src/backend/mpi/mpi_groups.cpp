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
