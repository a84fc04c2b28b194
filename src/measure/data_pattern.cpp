#include "measure/data_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

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
    case DataType::Int8: return fn(std::int8_t{});
    case DataType::Uint8: return fn(std::uint8_t{});
    case DataType::Int32: return fn(std::int32_t{});
    case DataType::Uint32: return fn(std::uint32_t{});
    case DataType::Int64: return fn(std::int64_t{});
    case DataType::Uint64: return fn(std::uint64_t{});
    case DataType::Float32: return fn(float{});
    case DataType::Float64: return fn(double{});
    case DataType::Float16:
    case DataType::BFloat16: break;
  }
  throw InputError("data type " + std::string(name_of(t)) + " has no host representation (GPU backends only)");
}

}  // namespace

double input_value(ReduceOp op, int rank, std::size_t index, int nranks) {
  return pattern::input_value(op, rank, index, nranks);
}

double reduced_value(ReduceOp op, std::size_t index, int nranks, DataType) {
  return pattern::reduced_value(op, index, nranks);
}

void fill_inputs(std::span<std::byte> buffer, DataType t, ReduceOp op, int rank, int nranks, std::size_t first) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = buffer.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) store<T>(buffer, i, input_value(op, rank, first + i, nranks));
    return 0;
  });
}

void fill_poison(std::span<std::byte> buffer, DataType t) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = buffer.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) store<T>(buffer, i, pattern::kPoison);
    return 0;
  });
}

std::int64_t count_mismatches(std::span<const std::byte> buffer, DataType t, std::size_t first,
                              double (*expected)(ReduceOp, std::size_t, int, DataType), ReduceOp op, int nranks) {
  return dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = buffer.size() / sizeof(T);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (load<T>(buffer, i) != as_type<T>(expected(op, first + i, nranks, t))) ++wrong;
    return wrong;
  });
}

std::int64_t count_input_mismatches(std::span<const std::byte> buffer, DataType t, ReduceOp op, int rank, int nranks,
                                    std::size_t first) {
  return dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const std::size_t n = buffer.size() / sizeof(T);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (load<T>(buffer, i) != as_type<T>(input_value(op, rank, first + i, nranks))) ++wrong;
    return wrong;
  });
}

}  // namespace commtune
