#pragma once
// commtune's element types and reductions as MPI handles.
#include <mpi.h>

#include "core/types.hpp"

namespace commtune {

// Throws InputError for types MPI has no handle for (half, bfloat16).
MPI_Datatype to_mpi(DataType t);
MPI_Op to_mpi(ReduceOp op);

}  // namespace commtune
