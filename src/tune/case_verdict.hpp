#pragma once
// One candidate against the default at one (collective, size), over every placement measured:
// faster only when it is clearly faster in each placement; slower when it is clearly slower in
// any; the figures are those of the placement with the smallest gain (the conservative one).
// With several runs a side (a repeated sweep, or launches merged by results/launch_merge.hpp),
// faster also needs every candidate run below the default's fastest run by the practical
// threshold: the between-run rule of compare (tune/run_verdict.hpp), judged on launches.
// The finalists' re-measure (cases with round medians on both sides) is judged by its paired rule
// instead: at least the margin faster than the default in every round, each round's two medians
// measured side by side (measure/decision's paired_clearly_faster).
#include <string>

#include "measure/decision.hpp"
#include "tune/case_index.hpp"

namespace commtune {

struct CaseVerdict {
  bool measured = false;  // both measured ok in every placement the default has
  bool faster = false;
  bool slower = false;
  double gain = 0;  // smallest time saved over placements (negative: slower)
  double default_us = 0, candidate_us = 0;
  double noise_floor = 0;     // largest over placements
  bool runs_overlap = false;  // faster on the pooled samples, but its runs do not all beat the default's
};

// Whether the paired rule judges this pair: the re-measure's round medians on both sides.
bool judged_paired(const CaseResult& base, const CaseResult& cand);

CaseVerdict verdict_against_default(const CaseIndex& index, const std::string& candidate, const SizeKey& key,
                                    const DecisionRule& rule);

// The same rule against another baseline than the default (racing: against the best setting).
CaseVerdict verdict_against(const CaseIndex& index, const std::string& baseline, const std::string& candidate,
                            const SizeKey& key, const DecisionRule& rule);

}  // namespace commtune
