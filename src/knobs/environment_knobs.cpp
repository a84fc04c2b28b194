#include "knobs/environment_knobs.hpp"

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
    std::string with;  // the settings that run with the environment's value
    std::size_t count = 0;
    bool default_with = false;
    for (const Setting& s : settings)
      if (!s.knobs.count(knob)) {
        with += (with.empty() ? "'" : ", '") + s.name + "'";
        ++count;
        default_with = default_with || s.name == kDefaultSettingName;
      }
    if (with.empty()) continue;  // every setting sets its own value, which wins over the environment's
    out.push_back(
        "the environment sets " + variable + "=" + it->second + ", a knob the settings vary: " + with +
        (count == 1 ? " runs" : " run") + " with it" +
        (default_with ? ", so the default is not the library's own choice (unset it to measure that)" : ""));
  }
  return out;
}

}  // namespace commtune
