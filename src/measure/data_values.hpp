#pragma once
// The data check's values, defined once for host loops (measure/data_pattern) and the CUDA
// kernels (kernels/fill_verify.cu), so that both backends check exactly the same thing.
// Small integers (0..7): every input, max and min is exact in every element type; products are
// exactly 2 (one rank contributes 2, the others 1). Sums grow about 3.5 per rank: exact up to 72
// ranks in bfloat16, 584 in half, millions in float; integer sums wrap exactly
// (data_pattern's inexact_check switches the check off past those limits).
#include <cstddef>

#include "core/types.hpp"

#if defined(__CUDACC__)
#define COMMTUNE_HOST_DEVICE __host__ __device__
#else
#define COMMTUNE_HOST_DEVICE
#endif

namespace commtune::pattern {

COMMTUNE_HOST_DEVICE inline double input_value(ReduceOp op, int rank, std::size_t index, int nranks) {
  if (op == ReduceOp::Prod)
    return (index + static_cast<std::size_t>(rank)) % static_cast<std::size_t>(nranks) == 0 ? 2 : 1;
  return static_cast<double>((static_cast<std::size_t>(rank) * 3 + index) % 8);
}

COMMTUNE_HOST_DEVICE inline double reduced_value(ReduceOp op, std::size_t index, int nranks) {
  double acc = pattern::input_value(op, 0, index, nranks);
  for (int r = 1; r < nranks; ++r) {
    const double v = pattern::input_value(op, r, index, nranks);
    if (op == ReduceOp::Sum)
      acc += v;
    else if (op == ReduceOp::Prod)
      acc *= v;
    else if (op == ReduceOp::Max)
      acc = v > acc ? v : acc;
    else
      acc = v < acc ? v : acc;
  }
  return acc;
}

}  // namespace commtune::pattern
