#pragma once
// The pairwise map on the MPI host backend: one rank per node (the first of each node) when the
// job spans several nodes, every rank when it runs on one; the round-robin schedule, each round's
// pairs exchanging at once with MPI_Sendrecv (both directions), rounds separated by a barrier that
// waits without spinning (a member not measuring leaves the CPU to those that are).
#include <chrono>
#include <cstddef>
#include <optional>

#include <mpi.h>

#include "pairwise/pair_matrix.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {

struct PairwiseOptions {
  std::size_t bytes = 1u << 20;  // bandwidth message
  int samples = 10;              // per pair, for bandwidth and for latency
  int exchanges = 4;             // bandwidth exchanges per sample
  int latency_exchanges = 20;    // 8-byte exchanges per latency sample
};

// Every rank of `world` calls it, with its local rank on its node and the job's node count (the
// control plane's locality); world rank 0 gets the matrix, the others nothing.
// `rounds`: these pairs only, in this order (a re-measure); std::nullopt: every pair, round robin.
std::optional<PairMatrix> measure_pairwise(MPI_Comm world, int local_rank, int nnodes,
                                           const PairwiseOptions& options,
                                           const std::optional<std::vector<Round>>& rounds = std::nullopt);

// A barrier that waits without spinning (MPI_Ibarrier tested every `poll`): a rank not measuring
// leaves the CPU to those that are, which matters where ranks share cores (the map's rounds, the
// copy ceiling measured after MPI_Init). Each test wakes the rank: where a wait lasts long against
// the poll (the copy ceiling's tenth of a second) a longer poll disturbs the measuring rank less.
void sleeping_barrier(MPI_Comm comm, std::chrono::microseconds poll = std::chrono::microseconds(200));

}  // namespace commtune
