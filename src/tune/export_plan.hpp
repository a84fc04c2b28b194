#pragma once
// What the exports write, worked out once from a recommendation and checked: environment
// entries (validated names and inert values), NCCL tuner CSV rows and Open MPI dynamic rules.
// Writers (src/report/*export*) only render an ExportPlan.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

struct EnvEntry {
  std::string name;
  std::string value;
};

struct TunerCsvRow {  // one line of the NCCL example tuner plugin's CSV (exports/rules_file_writers.hpp)
  std::string collective;
  std::uint64_t min_bytes = 0, max_bytes = 0;
  std::string algorithm, protocol;  // lowercase tokens
  int channels = -1, nnodes = -1, nranks = -1;
};

struct OmpiRule {  // from min_bytes up (until the next rule), use `algorithm` (0: Open MPI decides)
  std::uint64_t min_bytes = 0;
  int algorithm = 0;
  int fanout = 0;
  int segment_size = 0;
};

// What the user asked of the exports beyond the recommendation.
struct ExportOptions {
  // NCCL: also put the per-collective NCCL_ALGO / NCCL_PROTO choices into the env files. Off by
  // default: NVIDIA lists them as debugging variables (they apply to every size); the per-size
  // choices go through commtune's tuner plugin (the nccl-tuner rules file) instead.
  bool nccl_algo_proto_env = false;
  // Where commtune's tuner plugin is (build or install location), for the rules file's header;
  // empty: the header names the library and the folder it is installed in.
  std::string tuner_plugin_path;
};

struct ExportPlan {
  BackendKind backend = BackendKind::Mpi;
  int nranks = 0, nnodes = 1;
  std::vector<std::string> summary;  // comment lines: what is set and why
  std::vector<EnvEntry> env;
  std::vector<TunerCsvRow> tuner_rows;
  std::map<Collective, std::vector<OmpiRule>> ompi_rules;
  std::vector<std::string> notes;     // what could not be expressed in a format
  std::vector<std::string> warnings;  // header lines every env file carries (debugging variables)
  std::string tuner_plugin_path;      // ExportOptions::tuner_plugin_path
};

// Throws InputError when a knob of a chosen setting does not pass its grammar.
ExportPlan make_export_plan(const Recommendation& rec, const ExportOptions& options = {});

// Bucket edge between two measured sizes: the geometric midpoint, rounded down.
std::uint64_t bucket_edge(std::uint64_t below, std::uint64_t above);

}  // namespace commtune
