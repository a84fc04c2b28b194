#include "measure/data_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "measure/data_values.hpp"

namespace commtune {
namespace {

template <typename T>
void store(std::span<std::byte> buffer, std::size_t i, double value) {
  T typed;
  if constexpr (std::is_integral_v<T>)
    typed = static_cast<T>(static_cast<std::int64_t>(value));  // modular, as MPI's integer sums wrap
  else
    typed = static_cast<T>(value);
  std::memcpy(buffer.data() + i * sizeof(T), &typed, sizeof(T));
}

template <typename T>
T load(std::span<const std::byte> buffer, std::size_t i) {
  T typed;
  std::memcpy(&typed, buffer.data() + i * sizeof(T), sizeof(T));
  return typed;
}

template <typename T>
T as_type(double value) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<std::int64_t>(value));
  else
    return static_cast<T>(value);
}

template <typename Fn>
auto dispatch(DataType t, Fn&& fn) {
  switch (t) {
    case DataType::Int8:
      return fn(std::int8_t{});
    case DataType::Uint8:
      return fn(std::uint8_t{});
    case DataType::Int32:
      return fn(std::int32_t{});
    case DataType::Uint32:
      return fn(std::uint32_t{});
    case DataType::Int64:
      return fn(std::int64_t{});
    case DataType::Uint64:
      return fn(std::uint64_t{});
    case DataType::Float32:
      return fn(float{});
    case DataType::Float64:
      return fn(double{});
    case DataType::Float16:
    case DataType::BFloat16:
      break;
  }
  throw InputError("data type " + std::string(name_of(t)) +
                   " has no host representation (GPU backends only)");
}

// `value` as type t holds it: integers wrap (two's complement), floating types keep the small
// integers of the pattern exactly (inexact_check says where that ends).
double stored(DataType t, double value) {
  const auto whole = static_cast<std::int64_t>(value);
  switch (t) {
    case DataType::Int8:
      return static_cast<std::int8_t>(whole);
    case DataType::Uint8:
      return static_cast<std::uint8_t>(whole);
    case DataType::Int32:
      return static_cast<std::int32_t>(whole);
    case DataType::Uint32:
      return static_cast<std::uint32_t>(whole);
    default:
      return value;
  }
}

// Every value an input or a correct result of the pattern can take: results depend on the
// element index modulo 8 only, inputs are 0..7 (1 and 2 for products).
std::vector<double> pattern_values(DataType t, ReduceOp op, int nranks) {
  std::vector<double> values;
  for (std::size_t k = 0; k < 8; ++k) {
    values.push_back(stored(t, pattern::reduced_value(op, k, nranks)));
    for (int r = 0; r < std::min(nranks, 8); ++r)
      values.push_back(stored(t, pattern::input_value(op, r, k, nranks)));
  }
  return values;
}

// The largest integer below which every integer is exact in t (0: no limit that matters here).
double exact_integer_limit(DataType t) {
  switch (t) {
    case DataType::BFloat16:
      return 256;
    case DataType::Float16:
      return 2048;
    case DataType::Float32:
      return 16777216;
    default:
      return 0;
  }
}

double largest_sum(int nranks) {
  double largest = 0;
  for (std::size_t k = 0; k < 8; ++k)
    largest = std::max(largest, pattern::reduced_value(ReduceOp::Sum, k, nranks));
  return largest;
}

}  // namespace

double poison_value(DataType t, ReduceOp op, int nranks) {
  const std::vector<double> taken = pattern_values(t, op, nranks);
  for (double candidate = 99; candidate <= 127;
       ++candidate)  // exact in every type, int8 and bfloat16 included
    if (std::find(taken.begin(), taken.end(), stored(t, candidate)) == taken.end()) return candidate;
  throw BackendError(
      "no poison value left for this case");  // at most 24 values are taken of the 29 candidates
}

std::optional<std::string> inexact_check(DataType t, ReduceOp op, int nranks) {
  const double limit = exact_integer_limit(t);
  if (op != ReduceOp::Sum || limit == 0 || largest_sum(nranks) <= limit) return std::nullopt;
  int exact_up_to = 1;
  while (largest_sum(exact_up_to + 1) <= limit) ++exact_up_to;
  return "data check off: " + std::string(name_of(t)) + " sums over " + std::to_string(nranks) +
         " ranks reach " + std::to_string(static_cast<long long>(largest_sum(nranks))) + ", past " +
         std::to_string(static_cast<long long>(limit)) +
         ", the largest integer it holds exactly (exact up to " + std::to_string(exact_up_to) +
         " ranks); use -d float or -o max";
}

double input_value(ReduceOp op, int rank, std::size_t index, int nranks) {
  return pattern::input_value(op, rank, index, nranks);
}

double reduced_value(ReduceOp op, std::size_t index, int nranks, DataType) {
  return pattern::reduced_value(op, index, nranks);
}

namespace {

// The pattern repeats: a value at element i depends on i modulo its period only (8, or the rank
// count for products' inputs). A buffer is filled or checked against one period of values, as the
// element type holds them, so a check costs a compare per element, not a pattern evaluation (a
// reduced value is a loop over the ranks).
std::size_t input_period(ReduceOp op, int nranks) {
  return op == ReduceOp::Prod ? static_cast<std::size_t>(std::max(nranks, 1)) : 8;
}

template <typename T, typename Value>
std::vector<T> one_period(std::size_t period, std::size_t first, Value&& value) {
  std::vector<T> table(period);
  for (std::size_t j = 0; j < period; ++j) table[j] = as_type<T>(value(first + j));
  return table;
}

template <typename T>
void fill_periodic(std::span<std::byte> buffer, const std::vector<T>& table) {
  const std::size_t n = buffer.size() / sizeof(T);
  for (std::size_t i = 0, j = 0; i < n; ++i, j = j + 1 == table.size() ? 0 : j + 1)
    std::memcpy(buffer.data() + i * sizeof(T), &table[j], sizeof(T));
}

template <typename T>
std::int64_t count_periodic(std::span<const std::byte> buffer, const std::vector<T>& table) {
  const std::size_t n = buffer.size() / sizeof(T);
  std::int64_t wrong = 0;
  for (std::size_t i = 0, j = 0; i < n; ++i, j = j + 1 == table.size() ? 0 : j + 1)
    wrong += load<T>(buffer, i) != table[j];
  return wrong;
}

}  // namespace

void fill_inputs(std::span<std::byte> buffer, DataType t, ReduceOp op, int rank, int nranks,
                 std::size_t first) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const auto value = [&](std::size_t i) { return input_value(op, rank, i, nranks); };
    fill_periodic<T>(buffer, one_period<T>(input_period(op, nranks), first, value));
    return 0;
  });
}

void fill_poison(std::span<std::byte> buffer, DataType t, double poison) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    fill_periodic<T>(buffer, std::vector<T>{as_type<T>(poison)});
    return 0;
  });
}

std::int64_t count_mismatches(std::span<const std::byte> buffer, DataType t, std::size_t first,
                              double (*expected)(ReduceOp, std::size_t, int, DataType), ReduceOp op,
                              int nranks) {
  return dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = buffer.size() / sizeof(T);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (load<T>(buffer, i) != as_type<T>(expected(op, first + i, nranks, t))) ++wrong;
    return wrong;
  });
}

std::int64_t count_reduced_mismatches(std::span<const std::byte> buffer, DataType t, std::size_t first,
                                      ReduceOp op, int nranks) {
  return dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const auto value = [&](std::size_t i) { return pattern::reduced_value(op, i, nranks); };
    return count_periodic<T>(buffer, one_period<T>(8, first, value));
  });
}

std::int64_t count_input_mismatches(std::span<const std::byte> buffer, DataType t, ReduceOp op, int rank,
                                    int nranks, std::size_t first) {
  return dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const auto value = [&](std::size_t i) { return input_value(op, rank, i, nranks); };
    return count_periodic<T>(buffer, one_period<T>(input_period(op, nranks), first, value));
  });
}

}  // namespace commtune
