#pragma once
// The tuner's picture of one recommendation: per collective and size, which setting wins and by
// how much (bars, coloured by the winner, faint where the re-measure did not confirm it; none
// where the default stays), and what NCCL chose by itself there (the plugin's record); then the
// job-wide choices, the disqualified settings and the notes.
#include <string>

#include "html/document.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

html::Section tune_section(const Recommendation& rec, const std::string& path);

}  // namespace commtune
