#include "report/html_report.hpp"

#include <filesystem>

#include "html/document.hpp"
#include "report/html_doctor_section.hpp"
#include "report/html_provenance.hpp"
#include "report/html_replay_section.hpp"
#include "report/html_sections.hpp"

namespace commtune {
namespace {

int nranks_of(const ResultsDocument& doc) { return doc.cases.empty() ? 0 : doc.cases.front().nranks; }

const Recommendation* recommendation_for(const std::vector<ReportInput>& inputs, const ResultsDocument& doc) {
  for (const auto& input : inputs)
    if (const auto* rec = std::get_if<Recommendation>(&input.content))
      if (rec->backend == doc.backend && rec->nranks == nranks_of(doc)) return rec;
  return nullptr;
}

html::Section section_of(const std::vector<ReportInput>& inputs, const ReportInput& input) {
  if (const auto* doc = std::get_if<ResultsDocument>(&input.content))
    return results_section(*doc, input.path, recommendation_for(inputs, *doc));
  if (const auto* rec = std::get_if<Recommendation>(&input.content)) return tune_section(*rec, input.path);
  if (const auto* cmp = std::get_if<CompareDocument>(&input.content))
    return compare_section(*cmp, input.path);
  if (const auto* replay = std::get_if<ReplayRecord>(&input.content))
    return replay_section(*replay, input.path);
  return doctor_section(std::get<DoctorReport>(input.content), input.path);
}

std::string title_of(const std::vector<ReportInput>& inputs) {
  std::string names;
  for (const auto& input : inputs)
    names += (names.empty() ? "" : ", ") + std::filesystem::path(input.path).filename().string();
  return "commtune report: " + names;
}

}  // namespace

std::string html_report(const std::vector<ReportInput>& inputs, const std::string& report_command) {
  html::Document doc{title_of(inputs),
                     std::string("commtune ") + COMMTUNE_VERSION,
                     provenance_html(inputs, report_command),
                     {}};
  for (const auto& input : inputs) doc.sections.push_back(section_of(inputs, input));
  return html::render_document(doc);
}

}  // namespace commtune
