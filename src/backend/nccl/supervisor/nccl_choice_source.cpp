#include "backend/nccl/supervisor/nccl_choice_source.hpp"

#include "core/errors.hpp"

namespace commtune {
namespace {

std::string record_name(int rank) { return "rank-" + std::to_string(rank) + ".record"; }

}  // namespace

std::unique_ptr<NcclChoiceSource> NcclChoiceSource::for_setting(const Setting& setting,
                                                                const ChoiceRecording& recording,
                                                                int first_rank) {
  if (!setting.is_default()) return nullptr;
  std::unique_ptr<NcclChoiceSource> source(new NcclChoiceSource());
  source->not_recorded_ = recording.not_recorded;
  if (recording.plugin.empty()) return source;
  try {
    source->dir_ = std::make_unique<PrivateTempDir>("commtune-nccl-choice");
  } catch (const Error& e) {
    source->not_recorded_ = e.what();
    return source;
  }
  source->plugin_ = recording.plugin;
  source->record_.emplace(source->dir_->file(record_name(first_rank)));
  return source;
}

std::map<std::string, std::string> NcclChoiceSource::worker_variables(int rank) const {
  if (!dir_) return {};
  return {{"NCCL_TUNER_PLUGIN", plugin_}, {"COMMTUNE_TUNER_RECORD", dir_->file(record_name(rank))}};
}

NcclChoice NcclChoiceSource::choice_for(const Case& c) {
  if (!record_) return unrecorded_choice(not_recorded_);
  return record_->choice_for(c.collective, c.bytes);
}

}  // namespace commtune
