#pragma once
// The top of the report: where every input came from. Per results file one table of facts as a
// person reads them, never JSON text: the command, start time, launcher (and Slurm job), ranks and
// nodes, a table of hosts (CPU, memory, GPUs counted by model) and of rank places, the config and
// its settings (setting -> knobs), MPI's library and standard, NCCL's versions, GPUs and topology,
// the ceiling (path, GB/s per direction, basis, published range), the environment (variable ->
// value) and every other provenance fact flattened into rows; long lists fold behind "N more".
// Per other input its kind and headline; and the command that made the report.
#include <string>
#include <vector>

#include "inputs/report_input.hpp"

namespace commtune {

std::string provenance_html(const std::vector<ReportInput>& inputs, const std::string& report_command);

}  // namespace commtune
