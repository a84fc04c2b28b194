#pragma once
// commtune's element types and reductions in NCCL's terms.
#include <nccl.h>

#include "core/types.hpp"

namespace commtune {

ncclDataType_t to_nccl(DataType t);
ncclRedOp_t to_nccl(ReduceOp op);

}  // namespace commtune
