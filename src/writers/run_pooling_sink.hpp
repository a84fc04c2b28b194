#pragma once
// Between a repeated sweep (--repeat N) and the sinks that keep cases (the results file, the
// end-of-sweep tuning): each case is held until its last run has finished, then passed on once,
// pooled (results/run_pool.hpp). A sweep that stops early (Ctrl-C, SIGTERM) passes on, before it
// ends, every case with the runs it finished, so nothing measured is dropped; a killed process
// loses the cases whose last run had not finished.
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "writers/result_sink.hpp"

namespace commtune {

class RunPoolingSink : public ResultSink {
 public:
  RunPoolingSink(std::size_t runs, std::unique_ptr<ResultSink> inner);
  void begin(const RunHeader& header) override;
  void setting_started(const Setting& setting) override;
  void case_finished(const CaseResult& result) override;
  void end(const RunSummary& summary) override;

 private:
  using Key = std::tuple<std::string, Collective, std::uint64_t, DataType, ReduceOp, int, Placement>;
  std::size_t runs_;
  std::unique_ptr<ResultSink> inner_;
  std::map<Key, std::vector<CaseResult>> pending_;
  std::vector<Key> order_;  // first seen first: the order unfinished cases are passed on in
};

}  // namespace commtune
