#include "backend/nccl/supervisor/choice_recording.hpp"

#include <algorithm>

#include "host/tuner_plugin_location.hpp"

namespace commtune {

nlohmann::json ChoiceRecording::provenance() const {
  if (plugin.empty()) return {{"recorded", false}, {"reason", not_recorded}};
  return {{"recorded", true}, {"plugin", plugin}};
}

ChoiceRecording plan_choice_recording(const std::string& environment_tuner,
                                      const TunerPluginLocation& commtune_plugin, int nranks) {
  ChoiceRecording r;
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

}  // namespace commtune
