#pragma once
// A knob that the sweep's settings vary and that the environment sets too. Every setting that does
// not set the knob itself runs with the environment's value, the default setting among them: its
// figures are then not the library's own choice, and a recommendation judged against it is judged
// against the user's old override (`export NCCL_ALGO=Ring` left in a job script, an
// OMPI_MCA_coll_tuned_* in a module file). The sweep says so in the plan's warnings.
#include <map>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
#include "plan/setting.hpp"

namespace commtune {

// The environment variable a backend reads a knob from: NCCL's knobs are their own variables
// (NCCL_ALGO); Open MPI's are control variables, read at start-up from OMPI_MCA_<name>.
std::string environment_variable_of(BackendKind backend, const std::string& knob);

// One warning per knob that some setting of `settings` sets and `environment` sets too, in knob
// order: the variable, its value, and which settings run with it.
std::vector<std::string> knobs_the_environment_sets(BackendKind backend, const std::vector<Setting>& settings,
                                                    const std::map<std::string, std::string>& environment);

}  // namespace commtune
