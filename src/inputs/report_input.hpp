#pragma once
// One input file of `commtune report`, its kind told from its contents: a results file
// (commtune's or nccl-tests' JSON), a tune recommendation, a compare report (JSON), a doctor
// report (JSON) or a replay's results (`commtune replay`). Each is read by its one validating reader; a file
// of none of these kinds is an InputError naming it.
#include <string>
#include <string_view>
#include <variant>

#include "doctor/doctor_report.hpp"
#include "inputs/compare_report_json.hpp"
#include "replay/replay_record.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation.hpp"

namespace commtune {

struct ReportInput {
  std::string path;
  std::variant<ResultsDocument, Recommendation, CompareDocument, DoctorReport, ReplayRecord> content;
};

ReportInput load_report_input(const std::string& path);

// "results", "recommendation", "compare", "doctor", "replay".
std::string_view kind_name(const ReportInput& input);

}  // namespace commtune
