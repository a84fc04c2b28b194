#pragma once
// Per-size choices as rules files. Every measured size owns a bucket whose edges lie between
// it and its neighbours (bucket_edge); the first bucket starts at the smallest measured size
// and the last ends at the largest, so nothing is extrapolated beyond what was measured.
// Adjacent buckets with the same choice are merged; sizes where the default stays get no rule.
#include <map>
#include <string>
#include <vector>

#include "tune/export_plan.hpp"

namespace commtune {

struct SizeBucket {
  std::uint64_t min_bytes = 0, max_bytes = 0;
  const SizeDecision* decision = nullptr;
};

// Buckets of one collective's measured sizes, in increasing order.
std::vector<SizeBucket> size_buckets(const Recommendation& rec, Collective c);

// NCCL tuner CSV rows: winners whose setting forces one algorithm and one protocol for the
// collective; others are left to NCCL and noted.
std::vector<TunerCsvRow> tuner_csv_rows(const Recommendation& rec, std::vector<std::string>& notes);

// Open MPI dynamic rules per collective: the winner's forced algorithm, 0 (Open MPI's own
// decision) where the default stays and above the largest measured size.
std::map<Collective, std::vector<OmpiRule>> ompi_size_rules(const Recommendation& rec);

}  // namespace commtune
