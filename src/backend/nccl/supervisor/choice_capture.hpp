#pragma once
// Capturing what NCCL chose by itself for the default setting's cases, in two steps:
// - the plan, once per sweep: the default setting's workers load commtune's tuner plugin in record
//   mode (NCCL_TUNER_PLUGIN=<commtune's plugin>, COMMTUNE_TUNER_RECORD=<a private file per worker>),
//   unless the environment already loads a tuner plugin of its own, which then stays untouched (and
//   the choice is not captured), or commtune's plugin cannot be found. A one-rank communicator has
//   nothing to capture: NCCL 2.28 runs its collectives through ncclLaunchOneRank (src/enqueue.cc),
//   a copy without its cost model or tuner.
// - the capture, per setting: each worker of this supervisor records into its own file in a private
//   directory (mode 0700, made by commtune, removed with the setting), and after each case the
//   supervisor reads the record of its first worker (backend/nccl/supervisor/plugin_record_file.hpp).
//   Settings that force something get no capture: their cases carry no choice.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/plugin_record_file.hpp"
#include "host/private_temp_dir.hpp"
#include "plan/plan.hpp"

namespace commtune {

struct TunerPluginLocation;

struct ChoiceCapturePlan {
  std::string plugin;        // commtune's plugin, loaded in record mode; empty: not captured
  std::string not_recorded;  // why, when `plugin` is empty

  // provenance.nccl.nccl_choice: {"recorded": true, "plugin": PATH} or {"recorded": false, "reason": WHY}.
  nlohmann::json provenance() const;
};

inline constexpr const char* kNotAskedAtOneRank =
    "not asked at one rank: NCCL runs a one-rank communicator's collectives as a copy, without its tuner";

// `environment_tuner`: what the workers' environment loads as a tuner by itself (empty: nothing);
// `nranks`: the communicator's ranks.
ChoiceCapturePlan plan_choice_capture(const std::string& environment_tuner,
                                      const TunerPluginLocation& commtune_plugin, int nranks);

class ChoiceCapture {
 public:
  // Null for a setting that forces something.
  static std::unique_ptr<ChoiceCapture> for_setting(const Setting& setting, const ChoiceCapturePlan& plan,
                                                    int first_rank);

  // What the worker of `rank` gets on top of its environment: nothing when not capturing.
  std::map<std::string, std::string> worker_variables(int rank) const;
  // NCCL's choice for a case this supervisor's workers just ran.
  NcclChoice choice_for(const Case& c);

 private:
  ChoiceCapture() = default;
  std::string plugin_;
  std::string not_recorded_;
  std::unique_ptr<PrivateTempDir> dir_;
  std::optional<PluginRecordFile> record_;
};

}  // namespace commtune
