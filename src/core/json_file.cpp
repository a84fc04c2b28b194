#include "core/json_file.hpp"

#include <fstream>

#include "core/errors.hpp"

namespace commtune {

nlohmann::json read_json_file(const std::string& path, std::string_view what) {
  std::ifstream in(path);
  if (!in) {
    const std::string kind = what.empty() ? std::string() : std::string(what) + " ";
    throw InputError("cannot open " + kind + "'" + path + "'");
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
}

}  // namespace commtune
