#pragma once
// The NCCL knobs commtune sets, each with its value grammar (NCCL 2.28's environment variables and
// the ncclConfig_t fields commtune applies per communicator): the one list export may write.
#include "knobs/nccl_knobs.hpp"

namespace commtune {

const KnobChecks& nccl_knob_table();

}  // namespace commtune
