#pragma once
// Deterministic host-memory inputs whose exact collective result is known, and the count of
// elements that differ from it. Values are small integers (measure/data_values.hpp says where
// sums stop being exact in half, bfloat16 and float; integer types wrap the same way MPI does).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/types.hpp"

namespace commtune {

// The value rank `rank` contributes at element `index` for reduction `op` on `nranks` ranks.
double input_value(ReduceOp op, int rank, std::size_t index, int nranks);

// The exact reduction of input_value over all ranks at `index`, as the element type holds it.
double reduced_value(ReduceOp op, std::size_t index, int nranks, DataType t);

// Writes input_value(op, rank, first_index + i) into `elements` elements of type t.
void fill_inputs(std::span<std::byte> buffer, DataType t, ReduceOp op, int rank, int nranks,
                 std::size_t first_index = 0);

// A value that no input and no correct result of a case can hold in type t (integers wrap as the
// collectives' integer sums do), so an element the collective left untouched counts as wrong.
double poison_value(DataType t, ReduceOp op, int nranks);

// Why the data check cannot be exact: a half, bfloat16 or float sum over `nranks` ranks that
// passes the largest integer the type holds exactly. Nothing when it is exact.
std::optional<std::string> inexact_check(DataType t, ReduceOp op, int nranks);

// Writes `poison` into every element (stale-data detector for receive buffers).
void fill_poison(std::span<std::byte> buffer, DataType t, double poison);

// Counts elements of `buffer` that differ from `expected(first_index + i)`.
std::int64_t count_mismatches(std::span<const std::byte> buffer, DataType t, std::size_t first_index,
                              double (*expected)(ReduceOp, std::size_t, int, DataType), ReduceOp op,
                              int nranks);

// count_mismatches with reduced_value, from one period of the pattern (the data check's own: a
// compare per element).
std::int64_t count_reduced_mismatches(std::span<const std::byte> buffer, DataType t, std::size_t first_index,
                                      ReduceOp op, int nranks);

// Counts elements that differ from input_value(op, rank, first_index + i) (gathers, broadcast).
std::int64_t count_input_mismatches(std::span<const std::byte> buffer, DataType t, ReduceOp op, int rank,
                                    int nranks, std::size_t first_index = 0);

}  // namespace commtune
