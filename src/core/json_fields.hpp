#pragma once
// Fields of a JSON object read from input (a results file, a config, a request). Every reader says
// where the problem is and what was expected: "WHERE: missing field 'KEY'", "WHERE.KEY: expected an
// integer from 1 to 9, got -8", never a bare JSON exception. Integers must be integers (8.5 is not a
// byte count) within the target type's range (-8 is not an unsigned count).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {

// A value as a message may quote it: scalars as JSON text (cut short), containers by their kind.
inline std::string describe_json(const nlohmann::json& value) {
  if (value.is_object()) return value.empty() ? "an empty object" : "an object";
  if (value.is_array()) return value.empty() ? "an empty list" : "a list";
  if (value.is_null()) return "null";
  return excerpt(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

[[noreturn]] inline void bad_value(const std::string& path, const std::string& expected,
                                   const nlohmann::json& value) {
  throw InputError(path + ": expected " + expected + ", got " + describe_json(value));
}

inline std::string member_path(const std::string& where, const std::string& key) {
  return where + "." + excerpt(key);
}

// `v` itself when it is a list; otherwise the InputError naming `path`.
inline const nlohmann::json& list_at(const nlohmann::json& v, const std::string& path) {
  if (!v.is_array()) bad_value(path, "a list", v);
  return v;
}

inline const nlohmann::json& required_field(const nlohmann::json& j, const char* key,
                                            const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object", j);
  const auto it = j.find(key);
  if (it == j.end()) throw InputError(where + ": missing field '" + key + "'");
  return *it;
}

// An integer in [low, high]; a float (even 8.0), a string or out of range is an InputError.
inline std::int64_t integer_in(const nlohmann::json& v, const std::string& path, std::int64_t low,
                               std::int64_t high) {
  const std::string range = "an integer from " + std::to_string(low) + " to " + std::to_string(high);
  if (!v.is_number_integer()) bad_value(path, "an integer", v);
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    const bool below = low > 0 && u < static_cast<std::uint64_t>(low);
    if (high < 0 || below || u > static_cast<std::uint64_t>(high)) bad_value(path, range, v);
    return static_cast<std::int64_t>(u);
  }
  const std::int64_t i = v.get<std::int64_t>();
  if (i < low || i > high) bad_value(path, range, v);
  return i;
}

// A finite number in [low, high].
inline double number_in(const nlohmann::json& v, const std::string& path, double low, double high) {
  if (!v.is_number() || !(v.get<double>() >= low && v.get<double>() <= high))
    bad_value(path, "a number from " + nlohmann::json(low).dump() + " to " + nlohmann::json(high).dump(), v);
  return v.get<double>();
}

template <typename T>
T value_as(const nlohmann::json& v, const std::string& path) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) bad_value(path, "true or false", v);
    return v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    constexpr auto high = static_cast<std::int64_t>(
        std::min<std::uint64_t>(std::numeric_limits<T>::max(), std::numeric_limits<std::int64_t>::max()));
    return static_cast<T>(
        integer_in(v, path, static_cast<std::int64_t>(std::numeric_limits<T>::min()), high));
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) bad_value(path, "a number", v);
    return v.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) bad_value(path, "a string", v);
    return v.get<std::string>();
  } else {
    try {
      return v.get<T>();
    } catch (const nlohmann::json::exception&) {
      throw InputError(path + ": has the wrong type");
    }
  }
}

// Runs `parse` (a parse_collective, parse_size, ...); its InputError gets `path` in front.
template <typename Parse>
auto parsed_at(const std::string& path, Parse&& parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

template <typename T>
T field_as(const nlohmann::json& j, const char* key, const std::string& where) {
  return value_as<T>(required_field(j, key, where), member_path(where, key));
}

// Refuses a key of `object` outside `known` (a misspelt field is never silently ignored).
inline void reject_unknown_keys(const nlohmann::json& object, const std::set<std::string>& known,
                                const std::string& where) {
  for (const auto& item : object.items())
    if (!known.count(item.key())) throw InputError(where + ": unknown key " + quote_text(item.key()));
}

// A field of the document itself, read from `origin` (a file): its path is "ORIGIN: KEY".
template <typename T>
T top_field_as(const nlohmann::json& j, const char* key, const std::string& origin) {
  return value_as<T>(required_field(j, key, origin), origin + ": " + key);
}

}  // namespace commtune
