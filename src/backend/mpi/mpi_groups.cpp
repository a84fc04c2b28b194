#include "backend/mpi/mpi_groups.hpp"

#include <algorithm>

#include "backend/mpi/mpi_environment.hpp"
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
  std::vector<std::vector<double>> rank_seconds;
  for (int r = 0; r < size; ++r)
    rank_seconds.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r) * n),
                              all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r + 1) * n));
  const std::vector<std::vector<double>> slowest = slowest_per_group(layout_, rank_seconds);
  for (std::size_t g = 0; g < slowest.size(); ++g)
    seconds_[g].insert(seconds_[g].end(), slowest[g].begin(), slowest[g].end());
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
