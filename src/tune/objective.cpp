#include "tune/objective.hpp"

#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "plan/sizes.hpp"

namespace commtune {

double Objective::weight(Collective c) const {
  const auto it = weights.find(c);
  return it == weights.end() ? 1.0 : it->second;
}

std::string Objective::describe() const {
  if (!step.empty())
    return "the step of " + step_origin + " (" + std::to_string(step.size()) +
           " calls): each size by its share of the step's communication time under the default";
  std::string text =
      "sizes " + format_size(min_bytes) + " to " +
      (max_bytes == std::numeric_limits<std::uint64_t>::max() ? std::string("the largest measured")
                                                              : format_size(max_bytes));
  text += ", weighted geometric mean of speed-ups";
  for (const auto& [c, w] : weights) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", w);
    text += ", " + std::string(name_of(c)) + " weight " + buffer;
  }
  return text;
}

void parse_objective_range(std::string_view text, Objective& objective) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    throw InputError("--objective-sizes must be MIN:MAX, e.g. 64K:1G or 1M:");
  const std::string_view low = text.substr(0, colon), high = text.substr(colon + 1);
  objective.min_bytes = low.empty() ? 0 : parse_size(low);
  objective.max_bytes = high.empty() ? std::numeric_limits<std::uint64_t>::max() : parse_size(high);
  if (objective.min_bytes > objective.max_bytes) throw InputError("--objective-sizes: MIN is above MAX");
}

void parse_objective_weight(std::string_view text, Objective& objective) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos)
    throw InputError("--weight must be COLLECTIVE=NUMBER, e.g. allreduce=3");
  const Collective c = parse_collective(text.substr(0, equals));
  const std::string number(text.substr(equals + 1));
  char* end = nullptr;
  const double w = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(w) || w < 0)
    throw InputError("--weight " + quote_text(text) + ": the weight must be a non-negative number");
  objective.weights[c] = w;
}

}  // namespace commtune
