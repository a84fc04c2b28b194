#pragma once
// Whether the default setting's workers record what NCCL chose: with commtune's tuner plugin in
// record mode (NCCL_TUNER_PLUGIN=<commtune's plugin>, COMMTUNE_TUNER_RECORD=<a private file per
// worker>), unless the environment already loads a tuner plugin of its own, which then stays
// untouched (and the choice is not recorded), or commtune's plugin cannot be found. A one-rank
// communicator records nothing either: NCCL 2.28 runs its collectives through ncclLaunchOneRank
// (src/enqueue.cc), a copy without its cost model or tuner, so there is no choice to record.
#include <string>

#include <nlohmann/json.hpp>

namespace commtune {

struct TunerPluginLocation;

struct ChoiceRecording {
  std::string plugin;        // commtune's plugin, loaded in record mode; empty: not recorded
  std::string not_recorded;  // why, when `plugin` is empty

  // provenance.nccl.nccl_choice: {"recorded": true, "plugin": PATH} or {"recorded": false, "reason": WHY}.
  nlohmann::json provenance() const;
};

inline constexpr const char* kNotAskedAtOneRank =
    "not asked at one rank: NCCL runs a one-rank communicator's collectives as a copy, without its tuner";

// `environment_tuner`: what the workers' environment loads as a tuner by itself (empty: nothing);
// `nranks`: the communicator's ranks.
ChoiceRecording plan_choice_recording(const std::string& environment_tuner,
                                      const TunerPluginLocation& commtune_plugin, int nranks);

}  // namespace commtune
