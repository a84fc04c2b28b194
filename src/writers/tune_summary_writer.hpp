#pragma once
// The tuner's verdict for people: the rule and objective used, each job-wide choice with what
// it sets, why, the expected gain per collective and size range and the confidence; the
// per-size winners; disqualified settings; or that the defaults are already best.
#include <ostream>

#include "tune/recommendation.hpp"

namespace commtune {

void write_tune_summary(const Recommendation& rec, std::ostream& out);

}  // namespace commtune
