#include "tune/recommendation.hpp"

#include <algorithm>

namespace commtune {

const Setting* Recommendation::find_setting(const std::string& name) const {
  for (const auto& s : settings)
    if (s.name == name) return &s;
  return nullptr;
}

bool Recommendation::defaults_best() const {
  const bool size_winner =
      std::any_of(sizes.begin(), sizes.end(), [](const SizeDecision& d) { return !d.winner.empty(); });
  const bool job_choice = std::any_of(choices.begin(), choices.end(),
                                      [](const JobChoice& c) { return c.setting != kDefaultSettingName; });
  return !size_winner && !job_choice;
}

}  // namespace commtune
