#pragma once
// `sweep --workload W.json` (issue 28): the job's own cases instead of a size grid: each of the
// workload's (collective, size, group) once, in the element type that carries most of its bytes
// (unless -d), on the group specs it uses; --collectives narrows it. The size and group flags are
// refused beside it (the workload sets them); the end-of-sweep tuning weighs each size by its share
// of the step (tune/step_objective).
#include <string>

#include "plan/sweep_options.hpp"

namespace commtune {

struct WorkloadFlags {
  std::string path;
  bool sizes_given = false;        // -b -e -f -i
  bool groups_given = false;       // --groups
  bool collectives_given = false;  // --collectives: narrows the workload's
  bool dtype_given = false;        // -d
};

void apply_workload(const WorkloadFlags& flags, SweepOptions& options);

// The host backend has no 16-bit floats: a workload whose main type is one needs -d there (its sizes
// stay the workload's). Throws InputError naming --workload and -d.
void check_workload_type(const WorkloadFlags& flags, const SweepOptions& options, bool host_backend);

}  // namespace commtune
