#pragma once
// How an NCCL sweep is run (not what it measures): workers, deadlines, launch mode.
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "knobs/nccl_knobs.hpp"

namespace commtune {

struct NcclRunOptions {
  int ranks = 0;                // launcher-free runs: workers to start (0: one per visible GPU)
  bool emulate_nodes = false;   // each worker its own NCCL_HOSTID: one-GPU "nodes" over the network path
  double init_timeout_s = 120;  // communicator init (bootstrap included)
  double case_timeout_s = 60;   // each step of a case: prepare, check, one timed batch
  bool graph = false;           // launch timed iterations through a CUDA graph
  KnobChecks extra_knobs;       // knobs beyond NCCL's that this build accepts: none in the product
  ChoiceCapturePlan record;     // whether the default setting records what NCCL chose, and how
};

}  // namespace commtune
