// What the size of a paced group does to a broadcast's time per call: at each size, samples of
// groups of 8, 4, 3 and 2 back-to-back MPI_Bcast calls from rank 0, each group started from a
// barrier and timed to its end on every rank, divided by its calls, the slowest rank's taken
// (as commtune's MPI backend times a broadcast sample). The group sizes alternate sample by
// sample, so the machine's drift hits them alike. Prints per size the median time per call of each
// group size and its ratio to the groups of 8: how much the barrier's exit spread, spread over
// fewer calls, adds. Built and run by scripts/bench-paced-groups.sh (docs/statistics.md, "Rooted
// collectives on the MPI host backend").
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One sample: a group of `calls` broadcasts from a barrier, seconds per call on the slowest rank.
double group_sample(std::vector<char>& buffer, int calls) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < calls; ++i)
    MPI_Bcast(buffer.data(), static_cast<int>(buffer.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
  double per_call = (MPI_Wtime() - start) / calls;
  MPI_Allreduce(MPI_IN_PLACE, &per_call, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return per_call;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int samples = argc > 1 ? std::max(5, std::atoi(argv[1])) : 40;
  const int groups[] = {8, 4, 3, 2};
  for (const std::size_t bytes : {std::size_t{1} << 20, std::size_t{2} << 20, std::size_t{4} << 20}) {
    std::vector<char> buffer(bytes, 1);
    for (int w = 0; w < 5; ++w)
      MPI_Bcast(buffer.data(), static_cast<int>(bytes), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::vector<double>> times(4);
    for (int s = 0; s < samples; ++s)
      for (int g = 0; g < 4; ++g)
        times[static_cast<std::size_t>(g)].push_back(group_sample(buffer, groups[g]));
    if (rank != 0) continue;
    const double of8 = median(times[0]);
    std::printf("%8zu B  per call (us), median of %d samples:", bytes, samples);
    for (int g = 0; g < 4; ++g) {
      const double m = median(times[static_cast<std::size_t>(g)]);
      std::printf("  groups of %d: %.1f (%.3f)", groups[g], m * 1e6, m / of8);
    }
    std::printf("\n");
  }
  MPI_Finalize();
  return 0;
}
