#include "knobs/knob_grammar.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "knobs/ompi_algorithms.hpp"

namespace commtune {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_inert_char(char c) {
  static constexpr std::string_view kPunctuation = "_.,:;^/+@%=-";
  return is_alpha(c) || is_digit(c) || kPunctuation.find(c) != std::string_view::npos;
}

void validate_ompi_algorithm(const std::string& name, const std::string& value) {
  const auto collective = ompi_knob_collective(name);
  if (collective && !ompi_algorithm_number(*collective, value))
    throw InputError("knob " + name + ": '" + value + "' is not an Open MPI " + ompi_collective_key(*collective) +
                     " algorithm (a name such as ring, or its number)");
}

}  // namespace

bool is_valid_env_name(const std::string& name) {
  return !name.empty() && is_alpha(name.front()) &&
         std::all_of(name.begin(), name.end(), [](char c) { return is_alpha(c) || is_digit(c); });
}

bool is_inert_value(const std::string& value) { return std::all_of(value.begin(), value.end(), is_inert_char); }

void validate_knob(const std::string& backend, const std::string& name, const std::string& value) {
  if (!is_valid_env_name(name)) throw InputError("knob name '" + name + "' is not a valid environment variable name");
  if (!is_inert_value(value))
    throw InputError("knob " + name + ": value '" + value +
                     "' has characters outside [A-Za-z0-9_.,:;^/+@%=-] and cannot be exported safely");
  if (name == "NCCL_ALGO") parse_nccl_list(value, NcclListKind::Algorithm);
  if (name == "NCCL_PROTO") parse_nccl_list(value, NcclListKind::Protocol);
  if (backend == "mpi" && is_ompi_algorithm_knob(name)) validate_ompi_algorithm(name, value);
}

}  // namespace commtune
