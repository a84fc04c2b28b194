#include "writers/round_table_order.hpp"

#include <algorithm>

namespace commtune {

void RoundTableOrder::begin(const RunHeader& header) {
  for (std::size_t i = 0; i < header.plan.settings.size(); ++i)
    setting_order_.emplace(header.plan.settings[i].name, i);
  table_->begin(header);
}

void RoundTableOrder::run_started(std::size_t run, std::size_t runs) {
  flush();
  in_round_ = false;
  table_->run_started(run, runs);
}

void RoundTableOrder::round_started(std::size_t round, std::size_t rounds, std::size_t cases) {
  flush();
  in_round_ = true;
  table_->round_started(round, rounds, cases);
}

void RoundTableOrder::setting_started(const Setting& setting) {
  if (!in_round_) table_->setting_started(setting);
}

void RoundTableOrder::case_finished(const CaseResult& result) {
  if (in_round_)
    held_.push_back(result);
  else
    table_->case_finished(result);
}

void RoundTableOrder::notice(const std::string& text) {
  flush();
  table_->notice(text);
}

void RoundTableOrder::end(const RunSummary& summary) {
  flush();
  table_->end(summary);
}

// The held cases by their setting's place in the plan (a name not in it last), stably.
void RoundTableOrder::flush() {
  const auto place = [this](const CaseResult& r) {
    const auto it = setting_order_.find(r.setting);
    return it == setting_order_.end() ? setting_order_.size() : it->second;
  };
  std::stable_sort(held_.begin(), held_.end(),
                   [&](const CaseResult& a, const CaseResult& b) { return place(a) < place(b); });
  for (const CaseResult& r : held_) table_->case_finished(r);
  held_.clear();
}

}  // namespace commtune
