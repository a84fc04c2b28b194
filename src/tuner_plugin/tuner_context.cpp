#include "tuner_plugin/tuner_context.hpp"

#include <filesystem>
#include <fstream>

#include "tuner_plugin/tuner_match.hpp"

namespace commtune::tuner {

TunerContext::TunerContext(std::size_t nranks, std::size_t nnodes, commtune_nccl_logger_t logger,
                           const char* config_path, const char* record_path)
    : nranks_(nranks), nnodes_(nnodes), logger_(logger) {
  const unsigned long init = commtuneNcclSubsysInit | commtuneNcclSubsysTuning;
  if (record_path != nullptr && *record_path != '\0') {
    auto recorder = std::make_unique<PickRecorder>();
    std::string error;
    if (!recorder->open(record_path, error)) {
      log(commtuneNcclLogWarn, init,
          std::string("commtune tuner: record mode: cannot append to ") + record_path + " (" + error +
              "): nothing recorded, NCCL's own choices");
      return;
    }
    recorder_ = std::move(recorder);
    log(commtuneNcclLogInfo, init,
        std::string("commtune tuner: record mode: NCCL's own choices, recorded in ") + record_path);
    return;
  }
  if (config_path == nullptr || *config_path == '\0') {
    log(commtuneNcclLogWarn, init,
        std::string("commtune tuner: ") + kConfigFileVariable + " is not set: no rules, NCCL's own choices");
    return;
  }
  const std::string path(config_path);
  std::error_code error;
  std::ifstream in;
  if (!std::filesystem::is_directory(path, error)) in.open(path, std::ios::binary);
  if (!in.is_open()) {
    log(commtuneNcclLogWarn, init,
        "commtune tuner: cannot read rules file " + path + ": no rules, NCCL's own choices");
    return;
  }
  auto file = parse_tuner_rules(in);
  if (!file.ok) {
    log(commtuneNcclLogWarn, init,
        "commtune tuner: rules file " + path + " ignored (" + file.error + "): no rules, NCCL's own choices");
    return;
  }
  rules_ = std::move(file.rules);
  said_unavailable_ = std::make_unique<std::atomic<bool>[]>(rules_.size());
  log(commtuneNcclLogInfo, init,
      "commtune tuner: " + std::to_string(rules_.size()) + " rule(s) from " + path + " for " +
          std::to_string(nranks) + " ranks on " + std::to_string(nnodes) + " node(s)");
}

void TunerContext::log(commtune_nccl_log_level_t level, unsigned long flags,
                       const std::string& message) const {
  if (logger_ != nullptr) logger_(level, flags, __FILE__, __LINE__, "%s", message.c_str());
}

void TunerContext::coll_info(int function, std::size_t bytes, int num_pipe_ops, float* table, int num_algo,
                             int num_proto, int reg_buff, int* nchannels) {
  if (recorder_) {
    if (!recorder_->record(function, bytes, nccl_pick(table, num_algo, num_proto), nnodes_, nranks_,
                           num_pipe_ops, reg_buff) &&
        !said_record_full_.exchange(true))
      log(commtuneNcclLogWarn, commtuneNcclSubsysTuning,
          "commtune tuner: record mode: " + std::to_string(kMaxRecordedKeys) +
              " distinct calls recorded, no more");
    return;
  }
  if (rules_.empty()) return;
  const CollQuery q{function, bytes, num_pipe_ops, reg_buff, nranks_, nnodes_};
  const int index = first_matching_rule(rules_, q);
  if (index < 0) return;
  const auto& rule = rules_[static_cast<std::size_t>(index)];
  if (apply_rule(rule, table, num_algo, num_proto, nchannels) != Apply::unavailable) return;
  if (said_unavailable_[static_cast<std::size_t>(index)].exchange(true)) return;
  log(commtuneNcclLogInfo, commtuneNcclSubsysTuning,
      "commtune tuner: rule on line " + std::to_string(rule.line) + " (" + function_token(rule.function) +
          " " + std::to_string(rule.min_bytes) + ".." + std::to_string(rule.max_bytes) + ": " +
          algorithm_token(rule.algorithm) + "/" + protocol_token(rule.protocol) +
          ") is not available in this communicator: NCCL's own choice kept (said once per rule)");
}

}  // namespace commtune::tuner
