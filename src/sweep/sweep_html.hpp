#pragma once
// The HTML report at the end of a sweep (rank 0): RESULTS.html beside the results file, drawn
// from the results file and the recommendation as written (read back through their readers, so
// the page shows exactly what the files hold), never over an existing file. A failure to write
// it is a warning: the results are safe already.
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

// `recommendation_path` may be empty (no tuning). `provenance` gives the sweep's command line.
void write_sweep_html(const std::string& results_path, const std::string& recommendation_path,
                      const nlohmann::json& provenance);

// RESULTS.json -> RESULTS.html (RESULTS.1.html, ... where taken).
std::string html_report_path(const std::string& results_path);

}  // namespace commtune
