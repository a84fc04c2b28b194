#pragma once
// Enum <-> name tables: one lookup for every enum the CLI, config and results files spell out.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace commtune {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, std::size_t N>
std::string_view name_in(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_in(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [e, known] : table)
    if (known == name) return e;
  return std::nullopt;
}

// "a, b, c": the names, for error messages.
template <typename Enum, std::size_t N>
std::string names_in(const NameTable<Enum, N>& table) {
  std::string out;
  for (const auto& entry : table) out += (out.empty() ? "" : ", ") + std::string(entry.second);
  return out;
}

}  // namespace commtune
