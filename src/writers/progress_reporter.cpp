#include "writers/progress_reporter.hpp"

#include <cstdio>

#include "plan/duration.hpp"
#include "plan/sizes.hpp"

namespace commtune {
namespace {

// The progress line's budget part: "budget 15m: 9m20s left" or "budget 15m: ~1m10s over".
std::string budget_progress(double budget_s, double elapsed_s, double remaining_s) {
  const std::string head = "budget " + format_duration(budget_s) + ": ";
  const double over = elapsed_s + remaining_s - budget_s;
  if (over > 0) return head + "~" + format_duration(over) + " over";
  return head + format_duration(budget_s - elapsed_s) + " left";
}

}  // namespace

void ProgressReporter::begin(const RunHeader& header) {
  total_ = header.plan.cases.size() * header.runs;
  budget_s_ = header.plan.options.budget_s;
  start_ = last_report_ = Clock::now();
}

void ProgressReporter::case_finished(const CaseResult& result) {
  ++done_;
  const auto now = Clock::now();
  if (now - start_ < quiet_for_ || now - last_report_ < interval_) return;
  last_report_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double remaining =
      done_ > 0 ? elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_) : 0;
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                     format_duration(elapsed) + " elapsed, ~" + format_duration(remaining) +
                     (racing_ ? " left in this round" : " left");
  if (budget_s_) line += "; " + budget_progress(*budget_s_, elapsed, racing_ ? 0 : remaining);
  line += ": " + result.setting + " " + std::string(name_of(result.spec.collective)) + " " +
          format_size(result.spec.bytes) + "\n";
  err_ << line << std::flush;
}

void ProgressReporter::notice(const std::string& text) { err_ << ("commtune: " + text + "\n") << std::flush; }

}  // namespace commtune
