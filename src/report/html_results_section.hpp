#pragma once
// The plots of one results file: per collective, busbw against size (log2 axis, one line per
// setting with its p5-p95 band, the default and the recommended setting emphasised, the link
// ceiling drawn with the efficiency at the largest size), and the latency of the small sizes
// (log-log). Each with its text alternative and its numbers.
#include <string>

#include "html/document.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

// The largest size the latency plot shows.
inline constexpr std::uint64_t kLatencyPlotMaxBytes = 64 << 10;

// `recommendation`: the tuner's verdict on these results, or null; its job-wide choices are the
// settings emphasised beside the default.
html::Section results_section(const ResultsDocument& doc, const std::string& path,
                              const Recommendation* recommendation);

}  // namespace commtune
