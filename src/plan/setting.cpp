#include "plan/setting.hpp"

#include <algorithm>
#include <set>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {

bool Setting::applies_to(Collective c) const {
  return collectives.empty() || std::find(collectives.begin(), collectives.end(), c) != collectives.end();
}

namespace {
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == ':' || c == '+' || c == '-';
}
}  // namespace

void validate_setting_names(const std::vector<Setting>& settings) {
  std::set<std::string> seen;
  for (const auto& s : settings) {
    if (s.name.empty() || !std::all_of(s.name.begin(), s.name.end(), is_name_char))
      throw InputError("setting name " + quote_text(s.name) +
                       " must be non-empty and use only letters, digits and _.:+-");
    if (!seen.insert(s.name).second)
      throw InputError("setting name " + quote_text(s.name) + " appears twice");
  }
}

}  // namespace commtune
