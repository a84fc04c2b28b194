#include "backend/nccl/supervisor/choice_capture.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "host/tuner_plugin_location.hpp"

namespace commtune {
namespace {

std::string record_name(int rank) { return "rank-" + std::to_string(rank) + ".record"; }

}  // namespace

nlohmann::json ChoiceCapturePlan::provenance() const {
  if (plugin.empty()) return {{"recorded", false}, {"reason", not_recorded}};
  return {{"recorded", true}, {"plugin", plugin}};
}

ChoiceCapturePlan plan_choice_capture(const std::string& environment_tuner,
                                      const TunerPluginLocation& commtune_plugin, int nranks) {
  ChoiceCapturePlan r;
  if (nranks == 1) {
    r.not_recorded = kNotAskedAtOneRank;
    return r;
  }
  if (!environment_tuner.empty()) {
    r.not_recorded = "tuner plugin of the environment: " + environment_tuner + "; NCCL's choice not recorded";
    return r;
  }
  const auto& versions = commtune_plugin.abi_versions;
  if (commtune_plugin.path.empty() || std::find(versions.begin(), versions.end(), "v5") == versions.end()) {
    r.not_recorded = "commtune's tuner plugin is not usable: " +
                     (commtune_plugin.problem.empty() ? std::string("it exports no ncclTunerPlugin_v5")
                                                      : commtune_plugin.problem);
    return r;
  }
  r.plugin = commtune_plugin.path;
  return r;
}

std::unique_ptr<ChoiceCapture> ChoiceCapture::for_setting(const Setting& setting,
                                                          const ChoiceCapturePlan& recording,
                                                          int first_rank) {
  if (!setting.is_default()) return nullptr;
  std::unique_ptr<ChoiceCapture> source(new ChoiceCapture());
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

std::map<std::string, std::string> ChoiceCapture::worker_variables(int rank) const {
  if (!dir_) return {};
  return {{"NCCL_TUNER_PLUGIN", plugin_}, {"COMMTUNE_TUNER_RECORD", dir_->file(record_name(rank))}};
}

NcclChoice ChoiceCapture::choice_for(const Case& c) {
  if (!record_) return unrecorded_choice(not_recorded_);
  return record_->choice_for(c.collective, c.bytes);
}

}  // namespace commtune
