#pragma once
// Progress on stderr for sweeps that take more than a few seconds: nothing for the first
// seconds, then at most one line per interval with cases done, elapsed time and an estimate;
// with --budget, the estimate against the budget. The sweep's notices are printed at once.
#include <chrono>
#include <optional>
#include <ostream>

#include "writers/result_sink.hpp"

namespace commtune {

class ProgressReporter : public ResultSink {
 public:
  using Clock = std::chrono::steady_clock;
  explicit ProgressReporter(std::ostream& err, std::chrono::milliseconds quiet_for = std::chrono::seconds(3),
                            std::chrono::milliseconds interval = std::chrono::seconds(2))
      : err_(err), quiet_for_(quiet_for), interval_(interval) {}
  void begin(const RunHeader& header) override;
  void case_finished(const CaseResult& result) override;
  // Racing: the cases still to come are the round's (a later round's count is not known yet).
  void round_started(std::size_t, std::size_t, std::size_t cases) override {
    total_ = done_ + cases;
    racing_ = true;
  }
  void notice(const std::string& text) override;

 private:
  std::ostream& err_;
  std::chrono::milliseconds quiet_for_, interval_;
  Clock::time_point start_{}, last_report_{};
  std::size_t total_ = 0, done_ = 0;
  bool racing_ = false;
  std::optional<double> budget_s_;
};

}  // namespace commtune
