#pragma once
// The top of the report: where every input came from. Per results file its command, start time,
// ranks and nodes, hosts with their CPUs (and GPUs where recorded), library versions and every
// other provenance fact; per other input its kind and headline; and the command that made the report.
#include <string>
#include <vector>

#include "report/report_input.hpp"

namespace commtune {

std::string provenance_html(const std::vector<ReportInput>& inputs, const std::string& report_command);

}  // namespace commtune
