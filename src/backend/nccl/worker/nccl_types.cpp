#include "backend/nccl/worker/nccl_types.hpp"

namespace commtune {

ncclDataType_t to_nccl(DataType t) {
  switch (t) {
    case DataType::Int8:
      return ncclInt8;
    case DataType::Uint8:
      return ncclUint8;
    case DataType::Int32:
      return ncclInt32;
    case DataType::Uint32:
      return ncclUint32;
    case DataType::Int64:
      return ncclInt64;
    case DataType::Uint64:
      return ncclUint64;
    case DataType::Float16:
      return ncclFloat16;
    case DataType::BFloat16:
      return ncclBfloat16;
    case DataType::Float32:
      return ncclFloat32;
    case DataType::Float64:
      return ncclFloat64;
  }
  return ncclFloat32;
}

ncclRedOp_t to_nccl(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return ncclSum;
    case ReduceOp::Prod:
      return ncclProd;
    case ReduceOp::Max:
      return ncclMax;
    case ReduceOp::Min:
      return ncclMin;
  }
  return ncclSum;
}

}  // namespace commtune
