#pragma once
// Every name and value an export writes is checked here first: only knobs of commtune's knob
// tables (the NCCL table of knobs/nccl_knobs, Open MPI's coll/tuned algorithm variables and their
// companions), each value checked against that knob's grammar, and every value limited to
// characters that cannot start shell syntax (no quotes, $, `, \, spaces, newlines, redirections
// or globs). BASH_ENV, LD_PRELOAD, PATH or any other variable is refused.
#include <string>

#include "core/backend_kind.hpp"

namespace commtune {

bool is_valid_env_name(const std::string& name);
bool is_inert_value(const std::string& value);

// Throws InputError saying which knob and why, by the backend's grammar.
void validate_knob(BackendKind backend, const std::string& name, const std::string& value);

}  // namespace commtune
