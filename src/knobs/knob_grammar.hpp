#pragma once
// Every name and value an export writes is checked here first: environment names are
// [A-Za-z_][A-Za-z0-9_]*, NCCL_ALGO / NCCL_PROTO follow NCCL's list grammar, Open MPI algorithm
// variables take a known algorithm, and any other value is limited to characters that cannot
// start shell syntax (no quotes, $, `, \, spaces, newlines, redirections or globs).
#include <string>

namespace commtune {

bool is_valid_env_name(const std::string& name);
bool is_inert_value(const std::string& value);

// Throws InputError saying which knob and why. `backend` is "nccl" or "mpi".
void validate_knob(const std::string& backend, const std::string& name, const std::string& value);

}  // namespace commtune
