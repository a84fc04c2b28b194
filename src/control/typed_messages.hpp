#pragma once
// Typed messages over a control plane: every value a rank sends another goes through one codec,
// nlohmann_json's to_json/from_json of its type (numbers, bools, strings, lists and maps of them
// out of the box; a struct by the to_json/from_json defined beside it). Every rank calls each
// function in the same order, like the ControlPlane methods underneath.
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/control_plane.hpp"
#include "core/errors.hpp"

namespace commtune {

namespace control_codec {

template <typename T>
std::string encode(const T& value) {
  return nlohmann::json(value).dump();
}

// A message between commtune's own ranks that does not decode is a broken job, not bad input.
template <typename T>
T decode(const std::string& text) {
  try {
    return nlohmann::json::parse(text).get<T>();
  } catch (const std::exception& e) {  // a JSON error, or a field its type refuses (an InputError)
    throw ControlError(std::string("a control message did not decode: ") + e.what());
  }
}

}  // namespace control_codec

// Rank 0's `value` on every rank (the other ranks' `value` is not sent).
template <typename T>
T broadcast_value(ControlPlane& control, const T& value) {
  return control_codec::decode<T>(
      control.broadcast_from_root(control.rank() == 0 ? control_codec::encode(value) : std::string("null")));
}

// Every rank's `value`, in rank order, on rank 0; an empty list elsewhere.
template <typename T>
std::vector<T> gather_values(ControlPlane& control, const T& value) {
  std::vector<T> out;
  for (const std::string& text : control.gather_to_root(control_codec::encode(value)))
    out.push_back(control_codec::decode<T>(text));
  return out;
}

}  // namespace commtune
