#pragma once
// nccl-tests histories as a sweep for `commtune tune`: teams run nccl-tests once per setting
// (NCCL_ALGO=Tree all_reduce_perf ..., then NCCL_PROTO=LL ...), and each -J file records the NCCL_*
// environment it ran under. Files whose NCCL knobs (the product's NCCL table, less the ones that
// only change diagnostics: NCCL_DEBUG, NCCL_DEBUG_SUBSYS, NCCL_DEBUG_FILE, NCCL_TOPO_DUMP_FILE,
// NCCL_GRAPH_DUMP_FILE) are the same are launches of one setting. A knob set alike in every file is
// the site's environment (NCCL_IB_HCA=mlx5), not part of a setting; the files with none of the
// other knobs are the default, the baseline every other setting is judged against. The cases are judged on
// nccl-tests' time (time_us and, with -N cycles, each cycle as a run).
#include <map>
#include <string>
#include <vector>

#include "results/results_document.hpp"

namespace commtune {

struct NcclTestsSweep {
  ResultsDocument document;  // every setting's cases; settings: the default first, then by name
  std::vector<std::string>
      notes;  // NCCL_* variables that are no knob of commtune's and differ between files (ignored)
};

// Throws InputError naming the file: a knob value commtune refuses, files of one setting that do
// not hold the same cases (merge_launches), no file without forced knobs, or only one setting.
NcclTestsSweep nccl_tests_sweep(const std::vector<ResultsDocument>& files,
                                const std::vector<std::string>& origins);

// A setting's name from its knobs, in the letters a setting name may use: "algo:Tree+proto:LL"
// for NCCL_ALGO=Tree NCCL_PROTO=LL, "algo:.NVLS" for NCCL_ALGO=^NVLS ("default" for none).
std::string setting_name_of(const std::map<std::string, std::string>& knobs);

}  // namespace commtune
