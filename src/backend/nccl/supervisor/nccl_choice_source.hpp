#pragma once
// How the cases of the default setting learn what NCCL chose by itself: each worker of this
// supervisor loads commtune's tuner plugin in record mode, recording into its own file in a private
// directory (mode 0700, made by commtune, removed with the setting), and after each case the
// supervisor reads the record of its first worker. Settings that force something get no source:
// their cases carry no choice.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "backend/nccl/supervisor/choice_record.hpp"
#include "backend/nccl/supervisor/choice_recording.hpp"
#include "host/private_temp_dir.hpp"
#include "plan/plan.hpp"

namespace commtune {

class NcclChoiceSource {
 public:
  // Null for a setting that forces something.
  static std::unique_ptr<NcclChoiceSource> for_setting(const Setting& setting,
                                                       const ChoiceRecording& recording, int first_rank);

  // What the worker of `rank` gets on top of its environment: nothing when not recording.
  std::map<std::string, std::string> worker_variables(int rank) const;
  // NCCL's choice for a case this supervisor's workers just ran.
  NcclChoice choice_for(const Case& c);

 private:
  NcclChoiceSource() = default;
  std::string plugin_;
  std::string not_recorded_;
  std::unique_ptr<PrivateTempDir> dir_;
  std::optional<ChoiceRecord> record_;
};

}  // namespace commtune
