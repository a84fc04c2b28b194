#pragma once
// Fans each hook out to several sinks (table, progress, results file), in order.
#include <memory>
#include <vector>

#include "writers/result_sink.hpp"

namespace commtune {

class CompositeSink : public ResultSink {
 public:
  void add(std::unique_ptr<ResultSink> sink) { sinks_.push_back(std::move(sink)); }
  void begin(const RunHeader& h) override {
    for (auto& s : sinks_) s->begin(h);
  }
  void run_started(std::size_t run, std::size_t runs) override {
    for (auto& s : sinks_) s->run_started(run, runs);
  }
  void round_started(std::size_t round, std::size_t rounds, std::size_t cases) override {
    for (auto& s : sinks_) s->round_started(round, rounds, cases);
  }
  void setting_started(const Setting& setting) override {
    for (auto& s : sinks_) s->setting_started(setting);
  }
  void case_finished(const CaseResult& r) override {
    for (auto& s : sinks_) s->case_finished(r);
  }
  void notice(const std::string& text) override {
    for (auto& s : sinks_) s->notice(text);
  }
  void end(const RunSummary& summary) override {
    for (auto& s : sinks_) s->end(summary);
  }

 private:
  std::vector<std::unique_ptr<ResultSink>> sinks_;
};

}  // namespace commtune
