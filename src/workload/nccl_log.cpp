#include "workload/nccl_log.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "workload/nccl_log_scan.hpp"
#include "workload/nccl_log_shape.hpp"
#include "workload/workload_steps.hpp"

namespace commtune {
namespace {

// A log is read to its end: only a regular file (a FIFO or a device would block or never end).
void require_regular_file(const std::string& path) {
  struct stat info {};
  const std::string label = "NCCL log '" + excerpt(path, 200) + "'";
  if (::stat(path.c_str(), &info) != 0)
    throw InputError("cannot open " + label + ": " + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw InputError(label + " is not a regular file");
}

std::string not_measured_note(const NcclScan& scan) {
  std::string text;
  for (const auto& [function, calls] : scan.not_measured)
    text += (text.empty() ? "" : ", ") + excerpt(function, 40) + " x" + std::to_string(calls);
  return "calls commtune does not measure, left out: " + text;
}

Workload workload_of(const NcclScan& scan, const std::vector<std::string>& files,
                     const NcclLogOptions& options) {
  const NcclShapes shapes = find_shapes(scan, options.world_ranks);
  std::vector<const CallSequence*> sequences;
  for (const CommShape& shape : shapes.shapes) sequences.push_back(&scan.comms[shape.comm].calls);
  if (sequences.empty())
    throw InputError("'" + excerpt(files.front(), 200) +
                     "': no all-reduce, all-gather, broadcast or reduce-scatter call in the log");
  const StepRuns step = one_step_of(sequences, options.steps);
  Workload workload{.world_ranks = shapes.world_ranks,
                    .collectives = {},
                    .source = WorkloadSource{.kind = "nccl-log",
                                             .files = files,
                                             .parameters = nullptr,
                                             .skipped_lines = scan.skipped_lines,
                                             .notes = shapes.notes}};
  auto& notes = workload.source.notes;
  for (std::size_t i = 0; i < shapes.shapes.size(); ++i)
    append_runs(workload.collectives, step.per_sequence[i], scan.keys, shapes.shapes[i].group,
                shapes.shapes[i].group_ranks, notes);
  notes.insert(notes.end(), step.notes.begin(), step.notes.end());
  if (!scan.not_measured.empty()) notes.push_back(not_measured_note(scan));
  if (scan.sum_like_ops > 0)
    notes.push_back(std::to_string(scan.sum_like_ops) +
                    " reductions with ncclAvg or a custom op read as sums");
  return workload;
}

}  // namespace

Workload read_nccl_log_streams(const std::vector<std::pair<std::string, std::istream*>>& inputs,
                               const NcclLogOptions& options) {
  if (inputs.empty()) throw InputError("--nccl-log: no file given");
  NcclLogScanner scanner;
  std::vector<std::string> files;
  for (const auto& [name, in] : inputs) {
    scanner.scan(*in, name);
    files.push_back(name);
  }
  return workload_of(scanner.finish(), files, options);
}

Workload read_nccl_logs(const std::vector<std::string>& paths, const NcclLogOptions& options) {
  if (paths.empty()) throw InputError("--nccl-log: no file given");
  NcclLogScanner scanner;
  for (const std::string& path : paths) {
    require_regular_file(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open NCCL log '" + excerpt(path, 200) + "': " + std::strerror(errno));
    scanner.scan(in, path);
  }
  return workload_of(scanner.finish(), paths, options);
}

}  // namespace commtune
