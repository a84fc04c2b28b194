#pragma once
// Deterministic inputs on the GPU whose exact collective result is known, and the count of
// elements that differ from it, for every element type NCCL reduces (integers, half, bfloat16,
// float, double) and sum / prod / max / min. Values follow measure/data_pattern.hpp exactly, so
// host and GPU backends check the same thing: small integers, exact in every type.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "core/types.hpp"

namespace commtune::kernels {

// buffer[i] = input_value(op, rank, first_index + i, nranks) for i < count.
void fill_inputs(void* buffer, std::size_t count, DataType type, ReduceOp op, int rank, int nranks,
                 std::size_t first_index, cudaStream_t stream);

// buffer[i] = poison for i < count: a value no correct result has (measure/data_pattern's
// poison_value), so a receive buffer left untouched is counted as wrong.
void fill_poison(void* buffer, std::size_t count, DataType type, double poison, cudaStream_t stream);

// Adds to *device_counter the elements of buffer that differ from the expected value at
// first_index + i: the reduction over all ranks when source_rank < 0, else source_rank's input.
void count_mismatches(const void* buffer, std::size_t count, DataType type, ReduceOp op, int source_rank,
                      int nranks, std::size_t first_index, unsigned long long* device_counter,
                      cudaStream_t stream);

}  // namespace commtune::kernels
