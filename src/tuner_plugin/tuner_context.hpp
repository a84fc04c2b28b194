#pragma once
// One communicator's tuner state: its size, NCCL's logger, the rules read at init and which
// rules already said that their choice is unavailable. No state is shared between contexts.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tuner_plugin/nccl_tuner_abi.hpp"
#include "tuner_plugin/pick_recorder.hpp"
#include "tuner_plugin/tuner_rules.hpp"

namespace commtune::tuner {

inline constexpr const char* kConfigFileVariable = "NCCL_TUNER_CONFIG_FILE";

class TunerContext {
 public:
  // Reads the rules file `config_path` (null: none given). Never fails: a missing or bad file is
  // a warning through `logger` and a context without rules (NCCL's own choices). With
  // `record_path` (record mode) no rules are read: the context changes nothing and records
  // NCCL's picks there (pick_recorder.hpp).
  TunerContext(std::size_t nranks, std::size_t nnodes, commtune_nccl_logger_t logger, const char* config_path,
               const char* record_path = nullptr);

  // getCollInfo: applies the first matching rule; never fails.
  void coll_info(int function, std::size_t bytes, int num_pipe_ops, float* table, int num_algo, int num_proto,
                 int reg_buff, int* nchannels);

  std::size_t rule_count() const { return rules_.size(); }

 private:
  void log(commtune_nccl_log_level_t level, unsigned long flags, const std::string& message) const;

  std::uint64_t nranks_, nnodes_;
  commtune_nccl_logger_t logger_;
  std::vector<TunerRule> rules_;
  std::unique_ptr<std::atomic<bool>[]> said_unavailable_;  // one flag per rule
  std::unique_ptr<PickRecorder> recorder_;                 // record mode
  std::atomic<bool> said_record_full_{false};
};

}  // namespace commtune::tuner
