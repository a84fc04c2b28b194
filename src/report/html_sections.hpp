#pragma once
// The sections of `commtune report`'s page, one per kind of input (each drawn by its own
// html_<kind>_section.cpp; the doctor report's is report/html_doctor_section.hpp):
// - results: per collective, busbw against size (log2 axis, one line per setting with its p5-p95
//   band, the default and the recommended setting emphasised, the link ceiling drawn with the
//   efficiency at the largest size), and the latency of the small sizes (log-log). Each with its
//   text alternative and its numbers.
// - tune: per collective and size, which setting wins and by how much (bars, coloured by the
//   winner, faint where the re-measure did not confirm it; none where the default stays), and
//   what NCCL chose by itself there (the plugin's record); then the job-wide choices, the
//   disqualified settings and the notes.
// - compare: the provenance differences first, then per setting and collective the change of each
//   case in percent (bars up: slower, down: faster; out-of-place and in-place side by side, with
//   the change's interval), coloured by verdict, and the summary line.
#include <cctype>
#include <cstdint>
#include <string>

#include "html/document.hpp"
#include "inputs/compare_report_json.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

// A figure of another group spec than world (--groups, by its canonical name): " on groups MOD 2"
// after the collective in its title, "-mod-2" in its id; nothing for world.
inline std::string group_words(const std::string& group) {
  return group == "world" ? "" : " on groups " + group;
}
inline std::string group_id(const std::string& group) {
  if (group == "world") return "";
  std::string id = "-";
  for (char c : group)
    id += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '-';
  return id;
}

// The largest size the latency plot shows.
inline constexpr std::uint64_t kLatencyPlotMaxBytes = 64 << 10;

// `recommendation`: the tuner's verdict on these results, or null; its job-wide choices are the
// settings emphasised beside the default.
html::Section results_section(const ResultsDocument& doc, const std::string& path,
                              const Recommendation* recommendation);

html::Section tune_section(const Recommendation& rec, const std::string& path);

html::Section compare_section(const CompareDocument& doc, const std::string& path);

}  // namespace commtune
