#include "writers/run_pooling_sink.hpp"

#include <algorithm>

#include "results/run_pool.hpp"

namespace commtune {

RunPoolingSink::RunPoolingSink(std::size_t runs, std::unique_ptr<ResultSink> inner)
    : runs_(std::max<std::size_t>(runs, 1)), inner_(std::move(inner)) {}

void RunPoolingSink::begin(const RunHeader& header) { inner_->begin(header); }

void RunPoolingSink::setting_started(const Setting& setting) { inner_->setting_started(setting); }

void RunPoolingSink::case_finished(const CaseResult& result) {
  const Key key{result.setting, result.spec.collective, result.spec.bytes,    result.spec.dtype,
                result.spec.op, result.spec.root,       result.spec.placement};
  auto [it, inserted] = pending_.try_emplace(key);
  if (inserted) order_.push_back(key);
  it->second.push_back(result);
  if (it->second.size() < runs_) return;
  inner_->case_finished(pool_runs(it->second, runs_));
  pending_.erase(it);
  order_.erase(std::find(order_.begin(), order_.end(), key));
}

void RunPoolingSink::end(const RunSummary& summary) {
  for (const Key& key : order_) inner_->case_finished(pool_runs(pending_.at(key), runs_));
  pending_.clear();
  order_.clear();
  inner_->end(summary);
}

}  // namespace commtune
