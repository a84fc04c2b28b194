#pragma once
// The NCCL library this process would run with (ncclGetVersion), or why there is none.
#include <string>

namespace commtune {

std::string nccl_runtime_version();  // "2.28.9", or "not built"

}  // namespace commtune
