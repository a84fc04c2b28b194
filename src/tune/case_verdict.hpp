#pragma once
// One candidate against the default at one (collective, size), over every placement measured:
// faster only when it is clearly faster in each placement; slower when it is clearly slower in
// any; the figures are those of the placement with the smallest gain (the conservative one).
#include <string>

#include "tune/case_index.hpp"

namespace commtune {

struct CaseVerdict {
  bool measured = false;  // both measured ok in every placement the default has
  bool faster = false;
  bool slower = false;
  double gain = 0;        // smallest time saved over placements (negative: slower)
  double default_us = 0, candidate_us = 0;
  double noise_floor = 0; // largest over placements
};

CaseVerdict judge(const CaseIndex& index, const std::string& candidate, const SizeKey& key, double min_margin);

// The same rule against another baseline than the default (racing: against the best setting).
CaseVerdict judge_against(const CaseIndex& index, const std::string& baseline, const std::string& candidate,
                          const SizeKey& key, double min_margin);

}  // namespace commtune
