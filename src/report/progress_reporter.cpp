#include "report/progress_reporter.hpp"

#include <cstdio>

#include "plan/sizes.hpp"

namespace commtune {

void ProgressReporter::begin(const RunHeader& header) {
  total_ = header.plan.cases.size() * header.runs;
  start_ = last_report_ = Clock::now();
}

void ProgressReporter::case_finished(const CaseResult& result) {
  ++done_;
  const auto now = Clock::now();
  if (now - start_ < quiet_for_ || now - last_report_ < interval_) return;
  last_report_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double remaining = done_ > 0 ? elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_) : 0;
  char line[256];
  std::snprintf(line, sizeof line, "[%zu/%zu] %.0fs elapsed, ~%.0fs left: %s %s %s\n", done_, total_, elapsed,
                remaining, result.setting.c_str(), std::string(name_of(result.spec.collective)).c_str(),
                format_size(result.spec.bytes).c_str());
  err_ << line << std::flush;
}

}  // namespace commtune
