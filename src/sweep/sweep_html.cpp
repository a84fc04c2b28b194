#include "sweep/sweep_html.hpp"

#include <filesystem>
#include <iostream>

#include "core/errors.hpp"
#include "report/html_report.hpp"
#include "writers/json_results_writer.hpp"
#include "core/output_file.hpp"
#include "inputs/report_input.hpp"

namespace commtune {
namespace {

std::string sweep_command(const nlohmann::json& provenance) {
  std::string out;
  if (provenance.is_object() && provenance.contains("argv") && provenance["argv"].is_array())
    for (const auto& a : provenance["argv"]) {
      if (!out.empty()) out += ' ';
      out += a.is_string() ? a.get<std::string>() : a.dump();
    }
  return "written at the end of the sweep: " + out;
}

}  // namespace

std::string html_report_path(const std::string& results_path) {
  const std::filesystem::path p(results_path);
  return unused_path((p.parent_path() / (p.stem().string() + ".html")).string());
}

void write_sweep_html(const std::string& results_path, const std::string& recommendation_path,
                      const nlohmann::json& provenance) {
  if (results_path.empty()) return;
  try {
    std::vector<std::string> paths{results_path};
    if (!recommendation_path.empty()) paths.push_back(recommendation_path);
    std::vector<ReportInput> inputs;
    for (const auto& p : paths) inputs.push_back(load_report_input(p));
    const std::string path = html_report_path(results_path);
    write_output_file(path, html_report(inputs, sweep_command(provenance)), OutputPolicy{false, paths});
    std::cerr << ("commtune: report written to " + path + " (open it in a browser)\n") << std::flush;
  } catch (const Error& e) {
    std::cerr << ("commtune: warning: no HTML report: " + std::string(e.what()) + "\n") << std::flush;
  }
}

}  // namespace commtune
