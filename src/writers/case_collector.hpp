#pragma once
// A sink that keeps every finished case (for the end-of-sweep tuning and the finalists' rounds).
#include <vector>

#include "writers/result_sink.hpp"

namespace commtune {

class CaseCollector : public ResultSink {
 public:
  explicit CaseCollector(std::vector<CaseResult>& out) : out_(out) {}
  void case_finished(const CaseResult& r) override { out_.push_back(r); }

 private:
  std::vector<CaseResult>& out_;
};

}  // namespace commtune
