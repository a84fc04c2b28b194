#pragma once
// Fields of a JSON object read from input (a results file, a request): a missing field or one of
// the wrong type is an InputError "WHERE: missing field 'KEY'" / "WHERE: field 'KEY' has the
// wrong type", so a damaged input says which field of which entry, never a bare JSON exception.
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace commtune {

inline const nlohmann::json& required_field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw InputError(where + ": missing field '" + key + "'");
  return j.at(key);
}

template <typename T>
T field_as(const nlohmann::json& j, const char* key, const std::string& where) {
  try {
    return required_field(j, key, where).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(where + ": field '" + key + "' has the wrong type");
  }
}

}  // namespace commtune
