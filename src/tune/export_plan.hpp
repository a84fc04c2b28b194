#pragma once
// What the exports write, worked out once from a recommendation and checked: environment
// entries (validated names and inert values), NCCL tuner CSV rows and Open MPI dynamic rules.
// Writers (src/exports/) only render an ExportPlan.
//
// Its parts. The environment that applies the job-wide choices (env_composition.cpp): Open MPI:
// each knob as OMPI_MCA_<name> (algorithm names turned into their numbers) and
// OMPI_MCA_coll_tuned_use_dynamic_rules=1 when an algorithm is forced. NCCL: process-level knobs
// as they are; per-collective NCCL_ALGO / NCCL_PROTO choices merged into one value in NCCL's
// per-collective syntax (`allreduce:Tree;allgather:Ring`), only when asked; otherwise a note says
// they go through the tuner plugin. The per-size choices as rules files (size_rules.cpp): every
// measured size owns a bucket whose edges lie between it and its neighbours (bucket_edge); the
// first bucket starts at the smallest measured size and the last ends at the largest, so nothing
// is extrapolated beyond what was measured. Adjacent buckets with the same choice are merged;
// sizes where the default stays get no rule.
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

struct TunerCsvRow {  // one line of the NCCL example tuner plugin's CSV (exports/export_writer.hpp)
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

// The rules of one collective for the communicators of a group spec (--groups): Open MPI's
// dynamic rules tell communicators apart by size only (a section applies from its size up to the
// next section's, and the smallest section below its size too), so once any shape forces an
// algorithm for a collective, every measured shape gets a section of its own.
struct OmpiSection {
  Collective collective = Collective::AllReduce;
  int comm_size = 0;
  std::string spec;  // the group spec it was measured on
  std::vector<OmpiRule> rules;
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
  std::map<Collective, std::vector<OmpiRule>> ompi_rules;  // the world communicator's
  std::vector<OmpiSection> ompi_group_rules;               // communicators of other group specs
  std::vector<std::string> notes;                          // what could not be expressed in a format
  std::vector<std::string> warnings;  // header lines every env file carries (debugging variables)
  std::string tuner_plugin_path;      // ExportOptions::tuner_plugin_path
};

// What a job-wide choice does to the communicators of each group shape the recommendation decided
// on (the world's first): the sizes where it is clearly faster or slower than the default there,
// the most it saves and the most it loses (a negative fraction). Env files carry one line per shape
// when there are several: one value holds for every communicator of the job.
struct ShapeEffect {
  GroupShape shape;
  std::size_t faster = 0, slower = 0;
  double best = 0, worst = 0;
};
std::vector<ShapeEffect> shape_effects(const Recommendation& rec, const JobChoice& choice);

// Throws InputError when a knob of a chosen setting does not pass its grammar.
ExportPlan make_export_plan(const Recommendation& rec, const ExportOptions& options = {});

// Bucket edge between two measured sizes: the geometric midpoint, rounded down.
std::uint64_t bucket_edge(std::uint64_t below, std::uint64_t above);

// The environment entries of rec's job-wide choices; `nccl_algo_proto`: NCCL_ALGO / NCCL_PROTO
// go into it too (ExportOptions::nccl_algo_proto_env).
std::vector<EnvEntry> compose_environment(const Recommendation& rec, bool nccl_algo_proto,
                                          std::vector<std::string>& notes);

struct SizeBucket {
  std::uint64_t min_bytes = 0, max_bytes = 0;
  const SizeDecision* decision = nullptr;
};

// Buckets of one collective's measured sizes on the communicators of one group spec, in
// increasing order.
std::vector<SizeBucket> size_buckets(const Recommendation& rec, Collective c,
                                     const std::string& group = "world");

// The group shapes the decisions hold for: the world first (where it has decisions), then the
// others in order of first appearance.
std::vector<GroupShape> shapes_of(const Recommendation& rec);

// NCCL tuner CSV rows: winners whose setting forces one algorithm and one protocol for the
// collective; others are left to NCCL and noted. Each shape's rows carry its nNodes and nRanks
// (commtune's plugin matches a communicator by them).
std::vector<TunerCsvRow> tuner_csv_rows(const Recommendation& rec, std::vector<std::string>& notes);

// Open MPI dynamic rules per collective: the winner's forced algorithm, 0 (Open MPI's own
// decision) where the default stays and above the largest measured size; the world's.
std::map<Collective, std::vector<OmpiRule>> ompi_size_rules(const Recommendation& rec);
// The same for the communicators of every other group spec, one section per (collective, size);
// a second spec of a size already given a section is left out with a note.
std::vector<OmpiSection> ompi_group_sections(const Recommendation& rec, std::vector<std::string>& notes);

}  // namespace commtune
