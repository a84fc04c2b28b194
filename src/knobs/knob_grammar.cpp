#include "knobs/knob_grammar.hpp"

#include <algorithm>
#include <array>

#include "core/errors.hpp"
#include "knobs/nccl_knobs.hpp"
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
    throw InputError("knob " + name + ": '" + value + "' is not an Open MPI " +
                     ompi_collective_key(*collective) + " algorithm (a name such as ring, or its number)");
}

// The Open MPI knobs an export may write: coll/tuned's forced algorithm of a collective and its
// numeric companions (segment size, fan-outs, outstanding requests).
void validate_ompi_knob(const std::string& name, const std::string& value) {
  const auto collective = ompi_knob_collective(name);
  if (!collective)
    throw InputError(
        "knob " + name +
        " is not an Open MPI collective knob commtune exports (coll_tuned_<collective>_algorithm" +
        " and its _segmentsize, _tree_fanout, _chain_fanout, _max_requests)");
  if (is_ompi_algorithm_knob(name)) return validate_ompi_algorithm(name, value);
  const std::string stem = "coll_tuned_" + ompi_collective_key(*collective) + "_algorithm";
  const std::string suffix = name.substr(stem.size());
  static constexpr std::string_view kCompanions[] = {"_segmentsize", "_tree_fanout", "_chain_fanout",
                                                     "_max_requests"};
  if (std::find(std::begin(kCompanions), std::end(kCompanions), suffix) == std::end(kCompanions))
    throw InputError("knob " + name + " is not an Open MPI collective knob commtune exports");
  if (value.empty() || !std::all_of(value.begin(), value.end(), is_digit))
    throw InputError("knob " + name + ": '" + value + "' is not a non-negative integer");
}

}  // namespace

bool is_valid_env_name(const std::string& name) {
  return !name.empty() && is_alpha(name.front()) &&
         std::all_of(name.begin(), name.end(), [](char c) { return is_alpha(c) || is_digit(c); });
}

bool is_inert_value(const std::string& value) {
  return std::all_of(value.begin(), value.end(), is_inert_char);
}

namespace {

// Each backend's knob grammar: one row a backend, in BackendKind's order.
struct KnobGrammar {
  BackendKind backend;
  void (*validate)(const std::string& name, const std::string& value);
};
constexpr std::array<KnobGrammar, kBackendCount> kGrammars{{
    {BackendKind::Mpi, validate_ompi_knob},
    {BackendKind::Nccl, validate_nccl_knob},
}};
static_assert(covers_every_backend(kGrammars, &KnobGrammar::backend),
              "one knob grammar per backend, in enum order");

}  // namespace

void validate_knob(BackendKind backend, const std::string& name, const std::string& value) {
  if (!is_valid_env_name(name))
    throw InputError("knob name '" + name + "' is not a valid environment variable name");
  if (!is_inert_value(value))
    throw InputError("knob " + name + ": value '" + value +
                     "' has characters outside [A-Za-z0-9_.,:;^/+@%=-] and cannot be exported safely");
  backend_row(kGrammars, backend).validate(name, value);
}

}  // namespace commtune
