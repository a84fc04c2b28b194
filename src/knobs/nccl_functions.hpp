#pragma once
// NCCL's collective functions (ncclFunc_t of NCCL 2.28's src/include/device.h, the order its tuner
// plugins and NCCL_ALGO's "func:" lists name them), and the one that runs each commtune collective.
#include <array>
#include <string_view>

#include "core/types.hpp"

namespace commtune {

inline constexpr std::array<std::string_view, 5> kNcclFunctions{"broadcast", "reduce", "allgather",
                                                                "reducescatter", "allreduce"};

// ncclFunc_t's value for a collective (the index into kNcclFunctions).
int nccl_function_of(Collective c);

bool is_nccl_function(std::string_view name);

}  // namespace commtune
