#pragma once
// A timed batch from the CUDA event marks of one rank, as pure arithmetic (the NCCL engine reads
// the marks; the unit tests feed synthetic ones).
//
// Without a graph, a batch of k iterations runs k + 1: the event before the first follows a
// GPU-side barrier, so the first interval holds the host's enqueue and the ranks' skew leaving
// the barrier, and is dropped. With a graph, the only events are outside it: one interval for
// all k iterations.
#include <cstddef>
#include <span>

#include "backend/nccl/worker_protocol.hpp"

namespace commtune {

// Iterations to run for a batch of k timed ones (the first is dropped).
inline constexpr std::size_t iterations_to_run(std::size_t k) { return k + 1; }

// Events of a batch of k timed iterations in blocks of `block`: one after the barrier, one after
// the dropped first iteration, one after each block.
inline constexpr std::size_t events_for(std::size_t k, std::size_t block) { return 2 + k / block; }

// marks[i]: seconds from the first event to event i; event 0 follows the barrier, event 1 the
// dropped first iteration and event i + 1 the i-th block of `block` iterations. Each sample is a
// block's seconds / block. Needs at least 3 marks (one kept block); throws BackendError otherwise.
TimedBatch batch_from_marks(std::span<const double> marks, std::size_t block = 1);

// A graph of `iterations` timed from outside: one sample, the graph's seconds / iterations.
TimedBatch batch_from_graph(double graph_seconds, std::size_t iterations);

}  // namespace commtune
