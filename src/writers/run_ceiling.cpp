#include "writers/run_ceiling.hpp"

#include "core/errors.hpp"

namespace commtune {

std::optional<Ceiling> ceiling_of(const nlohmann::json& provenance) {
  if (!provenance.is_object() || !provenance.contains("ceiling")) return std::nullopt;
  try {
    return ceiling_from_json(provenance["ceiling"], "provenance.ceiling");
  } catch (const InputError&) {
    return std::nullopt;  // the reader refuses such a file before any writer sees it
  }
}

}  // namespace commtune
