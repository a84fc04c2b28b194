#include "fill_verify.hpp"

#include "measure/data_values.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace commtune::kernels {
namespace {

constexpr int kThreads = 256;
using pattern::input_value;
using pattern::reduced_value;

// The element type's value of an exact double; integers wrap as NCCL's integer sums do.
template <typename T>
__device__ T as_type(double v) {
  return static_cast<T>(static_cast<long long>(v));
}
template <>
__device__ float as_type<float>(double v) {
  return static_cast<float>(v);
}
template <>
__device__ double as_type<double>(double v) {
  return v;
}
template <>
__device__ __half as_type<__half>(double v) {
  return __float2half(static_cast<float>(v));
}
template <>
__device__ __nv_bfloat16 as_type<__nv_bfloat16>(double v) {
  return __float2bfloat16(static_cast<float>(v));
}

template <typename T>
__device__ bool same(T a, T b) {
  return a == b;
}
template <>
__device__ bool same<__half>(__half a, __half b) {
  return __half2float(a) == __half2float(b);
}
template <>
__device__ bool same<__nv_bfloat16>(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __bfloat162float(a) == __bfloat162float(b);
}

template <typename T>
__global__ void fill_kernel(T* out, std::size_t count, ReduceOp op, int rank, int nranks, std::size_t first,
                            bool poison, double poison_value) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = as_type<T>(poison ? poison_value : input_value(op, rank, first + i, nranks));
}

template <typename T>
__global__ void count_kernel(const T* in, std::size_t count, ReduceOp op, int source, int nranks,
                             std::size_t first, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const double expected =
        source < 0 ? reduced_value(op, first + i, nranks) : input_value(op, source, first + i, nranks);
    if (!same(in[i], as_type<T>(expected))) ++mine;
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

unsigned blocks_for(std::size_t count) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(wanted < 1024 ? (wanted == 0 ? 1 : wanted) : 1024);
}

template <typename Fn>
void dispatch(DataType type, Fn&& fn) {
  switch (type) {
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
    case DataType::Float16:
      return fn(__half{});
    case DataType::BFloat16:
      return fn(__nv_bfloat16{});
    case DataType::Float32:
      return fn(float{});
    case DataType::Float64:
      return fn(double{});
  }
  throw std::invalid_argument("unknown data type");
}

void check_launch(const char* what) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(error));
}

}  // namespace

void fill_inputs(void* buffer, std::size_t count, DataType type, ReduceOp op, int rank, int nranks,
                 std::size_t first, cudaStream_t stream) {
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    fill_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(buffer), count, op, rank,
                                                               nranks, first, false, 0.0);
  });
  check_launch("fill kernel");
}

void fill_poison(void* buffer, std::size_t count, DataType type, double poison, cudaStream_t stream) {
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    fill_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(buffer), count, ReduceOp::Sum,
                                                               0, 1, 0, true, poison);
  });
  check_launch("poison kernel");
}

void count_mismatches(const void* buffer, std::size_t count, DataType type, ReduceOp op, int source_rank,
                      int nranks, std::size_t first, unsigned long long* counter, cudaStream_t stream) {
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    count_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(buffer), count, op,
                                                                source_rank, nranks, first, counter);
  });
  check_launch("verify kernel");
}

}  // namespace commtune::kernels
