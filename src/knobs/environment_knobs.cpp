#include "knobs/environment_knobs.hpp"

#include <algorithm>
#include <set>

namespace commtune {

std::string environment_variable_of(BackendKind backend, const std::string& knob) {
  return backend == BackendKind::Mpi ? "OMPI_MCA_" + knob : knob;
}

std::vector<std::string> knobs_the_environment_sets(BackendKind backend, const std::vector<Setting>& settings,
                                                    const std::map<std::string, std::string>& environment) {
  std::set<std::string> varied;
  for (const Setting& s : settings)
    for (const auto& [knob, value] : s.knobs) varied.insert(knob);
  std::vector<std::string> out;
  for (const std::string& knob : varied) {
    const std::string variable = environment_variable_of(backend, knob);
    const auto it = environment.find(variable);
    if (it == environment.end()) continue;
    std::vector<std::string> with;  // the settings that run with the environment's value
    for (const Setting& s : settings)
      if (!s.knobs.count(knob)) with.push_back(s.name);
    if (with.empty()) continue;  // every setting sets its own value, which wins over the environment's
    const bool default_with = std::find(with.begin(), with.end(), kDefaultSettingName) != with.end();
    std::string names;
    for (const std::string& name : with) names += (names.empty() ? "'" : ", '") + name + "'";
    out.push_back(
        "the environment sets " + variable + "=" + it->second + ", a knob the settings vary: " + names +
        (with.size() == 1 ? " runs" : " run") + " with it" +
        (default_with ? ", so the default is not the library's own choice (unset it to measure that)" : ""));
  }
  return out;
}

}  // namespace commtune
