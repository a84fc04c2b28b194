#include "backend/mpi/mpi_types.hpp"

#include "core/errors.hpp"

namespace commtune {

MPI_Datatype to_mpi(DataType t) {
  switch (t) {
    case DataType::Int8:
      return MPI_INT8_T;
    case DataType::Uint8:
      return MPI_UINT8_T;
    case DataType::Int32:
      return MPI_INT32_T;
    case DataType::Uint32:
      return MPI_UINT32_T;
    case DataType::Int64:
      return MPI_INT64_T;
    case DataType::Uint64:
      return MPI_UINT64_T;
    case DataType::Float32:
      return MPI_FLOAT;
    case DataType::Float64:
      return MPI_DOUBLE;
    case DataType::Float16:
    case DataType::BFloat16:
      break;
  }
  throw InputError("the MPI backend has no " + std::string(name_of(t)) +
                   " type (use float, double or an integer type)");
}

MPI_Op to_mpi(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return MPI_SUM;
    case ReduceOp::Prod:
      return MPI_PROD;
    case ReduceOp::Max:
      return MPI_MAX;
    case ReduceOp::Min:
      return MPI_MIN;
  }
  return MPI_SUM;
}

}  // namespace commtune
