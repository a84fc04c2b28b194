// A bare all-reduce loop for scripts/bench-overhead.sh (BARE=1): commtune's timing method with
// nothing of commtune around it. Per size, float sum, out of place: `warmup` calls, a barrier, then
// `iterations` back-to-back calls with one clock read after each; each iteration's interval is
// taken on its slowest rank (max over ranks) and the figure is their mean, in microseconds, as
// commtune's time_us.mean is for calls timed one by one. What commtune's figure adds to this one
// is its harness (sampling, statistics, bookkeeping between batches); what this one differs from
// OSU by is the method (back-to-back calls against calls each timed alone, averaged over ranks).
// Its buffers start on a page, as OSU's and commtune's do (a receive buffer off the 64-byte line
// makes Open MPI's copies into it slower). Built by the bench with mpicxx; not part of commtune.
//
// Usage: bare-allreduce MIN_BYTES MAX_BYTES [ITERATIONS=1000] [WARMUP=100]
// Prints "SIZE MEAN_US" per size (doubling from MIN_BYTES) on rank 0. Exit 2 on bad arguments.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

bool parse(const char* text, long long& out) {
  char* end = nullptr;
  out = std::strtoll(text, &end, 10);
  return end != text && *end == '\0' && out > 0;
}

double mean_of_slowest(std::vector<double>& intervals) {
  MPI_Allreduce(MPI_IN_PLACE, intervals.data(), static_cast<int>(intervals.size()), MPI_DOUBLE, MPI_MAX,
                MPI_COMM_WORLD);
  double sum = 0;
  for (const double d : intervals) sum += d;
  return sum / static_cast<double>(intervals.size());
}

// `elements` floats on a page boundary, every one written (every page faulted in before timing).
float* page_aligned(std::size_t elements, float value) {
  auto* p = static_cast<float*>(std::aligned_alloc(4096, (elements * sizeof(float) + 4095) / 4096 * 4096));
  if (p == nullptr) std::abort();
  for (float& x : std::span<float>(p, elements)) x = value;
  return p;
}

double time_size(float* send, float* recv, int count, long long iterations, long long warmup) {
  for (long long i = 0; i < warmup; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::vector<double> intervals(static_cast<std::size_t>(iterations));
  MPI_Barrier(MPI_COMM_WORLD);
  double previous = MPI_Wtime();
  for (double& d : intervals) {
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    const double now = MPI_Wtime();
    d = now - previous;
    previous = now;
  }
  return mean_of_slowest(intervals);
}

}  // namespace

int main(int argc, char** argv) {
  long long min_bytes = 0, max_bytes = 0, iterations = 1000, warmup = 100;
  const bool ok = (argc == 3 || argc == 4 || argc == 5) && parse(argv[1], min_bytes) &&
                  parse(argv[2], max_bytes) && (argc < 4 || parse(argv[3], iterations)) &&
                  (argc < 5 || parse(argv[4], warmup)) && min_bytes >= 4 && min_bytes <= max_bytes &&
                  max_bytes <= (1LL << 30);
  if (!ok) {
    std::fprintf(
        stderr,
        "usage: bare-allreduce MIN_BYTES MAX_BYTES [ITERATIONS] [WARMUP] (4 <= MIN <= MAX <= 1 GiB)\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto elements = static_cast<std::size_t>(max_bytes / 4);
  float* send = page_aligned(elements, 1.0f);
  float* recv = page_aligned(elements, 0.0f);
  for (long long bytes = min_bytes; bytes <= max_bytes; bytes *= 2) {
    const double mean_s = time_size(send, recv, static_cast<int>(bytes / 4), iterations, warmup);
    if (rank == 0) std::printf("%lld %.3f\n", bytes, mean_s * 1e6);
  }
  std::free(send);
  std::free(recv);
  MPI_Finalize();
  return 0;
}
