#pragma once
// `commtune workload --nccl-log FILE...`: a training step's collectives read from NCCL's own debug
// log (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL; one file, or the per-process files of
// NCCL_DEBUG_FILE). docs/workload-readers.md: the lines read (nccl_log_line), how communicators'
// shapes (nccl_log_shape) and the step (workload_steps) are found, what is skipped.
// Streaming: each file is read once, line by line, in bounded memory.
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "workload/workload.hpp"

namespace commtune {

struct NcclLogOptions {
  std::uint64_t steps = 0;  // steps the log holds (--steps); 0: found from the repeating calls
  int world_ranks = 0;      // the job's ranks when known; 0: the largest communicator's
};

// Throws InputError naming the file: not a regular file, no collective line, an unknown
// datatype, a communicator whose nranks changes, a shape commtune cannot express.
Workload read_nccl_logs(const std::vector<std::string>& paths, const NcclLogOptions& options);

// The same over inputs already open: (name, stream) pairs (tests, the fuzzer).
Workload read_nccl_log_streams(const std::vector<std::pair<std::string, std::istream*>>& inputs,
                               const NcclLogOptions& options);

}  // namespace commtune
