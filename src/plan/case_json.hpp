#pragma once
// The JSON form of what a case measures: collective, bytes, count, dtype, op, root, placement,
// with nccl-tests' names, and its group spec ("group", absent for world). One mapping for the results file
// and the NCCL worker protocol.
#include <string>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"

namespace commtune {

// Adds the case's fields to the object `j`; its other fields stay.
void put_case_fields(nlohmann::json& j, const Case& c);

// The case's fields of `j`; index and setting_index are left 0 (they are not part of the mapping).
// A missing field, one of the wrong type or out of range (bytes 1 to 2^50, root -1 or more) is an
// InputError naming `where` and the field; so is an unknown name.
Case case_fields_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
