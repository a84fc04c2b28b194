#include "knobs/nccl_functions.hpp"

#include <algorithm>

#include "core/collective_table.hpp"

namespace commtune {
namespace {

struct NcclFunction {
  Collective collective;
  int function;  // ncclFunc_t
};
constexpr std::array<NcclFunction, kCollectiveCount> kFunctionOf{{
    {Collective::AllReduce, 4},
    {Collective::AllGather, 2},
    {Collective::Broadcast, 0},
    {Collective::ReduceScatter, 3},
}};
static_assert(covers_every_collective(kFunctionOf), "one NCCL function per collective, in enum order");

}  // namespace

int nccl_function_of(Collective c) { return row_of(kFunctionOf, c).function; }

bool is_nccl_function(std::string_view name) {
  return std::find(kNcclFunctions.begin(), kNcclFunctions.end(), name) != kNcclFunctions.end();
}

}  // namespace commtune
