#pragma once
// The table of a racing round, setting by setting: a round run side by side (plan/race_order)
// measures a size's settings one after another, and a table cut into one section per setting and
// collective would print a header for every row. This sink holds a round's cases and hands them
// to the table when the round ends, in the plan's setting order (each setting's cases in the
// order measured). Outside racing rounds (an exhaustive sweep) cases pass straight through.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "writers/result_sink.hpp"

namespace commtune {

class RoundTableOrder : public ResultSink {
 public:
  explicit RoundTableOrder(std::unique_ptr<ResultSink> table) : table_(std::move(table)) {}

  void begin(const RunHeader& header) override;
  void run_started(std::size_t run, std::size_t runs) override;
  void round_started(std::size_t round, std::size_t rounds, std::size_t cases) override;
  void setting_started(const Setting& setting) override;
  void case_finished(const CaseResult& result) override;
  void notice(const std::string& text) override;
  void end(const RunSummary& summary) override;

 private:
  void flush();

  std::unique_ptr<ResultSink> table_;
  std::map<std::string, std::size_t> setting_order_;  // name -> its place in the plan
  std::vector<CaseResult> held_;
  bool in_round_ = false;
};

}  // namespace commtune
