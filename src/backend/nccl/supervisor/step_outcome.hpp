#pragma once
// How one step of a setting (init, a case's preparation, check or timing) ended on one worker,
// on one supervisor, or, once agreed, everywhere.
#include <string>

#include "results/case_result.hpp"

namespace commtune {

enum class StepStatus { Ok, Failed, TimedOut };

struct StepOutcome {
  StepStatus status = StepStatus::Ok;
  std::string reason;  // names the rank and the step; NCCL's own error text where there is one
  bool fatal = false;  // the workers cannot go on: they are (or must be) stopped
  int rank = -1;       // the rank blamed, where one is (its group is named from it)
  bool ok() const { return status == StepStatus::Ok; }
  CaseStatus case_status() const {
    return status == StepStatus::TimedOut ? CaseStatus::TimedOut : CaseStatus::Failed;
  }
};

}  // namespace commtune
