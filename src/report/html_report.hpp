#pragma once
// `commtune report`'s page from its inputs: the provenance first, then a section per input in the
// order given (results with their plots, recommendations, compare and doctor reports). A
// recommendation given together with results of the same backend and rank count marks its
// chosen settings in their plots. Pure: inputs to one HTML text.
#include <string>
#include <vector>

#include "inputs/report_input.hpp"

namespace commtune {

std::string html_report(const std::vector<ReportInput>& inputs, const std::string& report_command);

}  // namespace commtune
