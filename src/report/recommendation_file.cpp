#include "report/recommendation_file.hpp"

#include <fstream>

#include "core/errors.hpp"

namespace commtune {

void write_recommendation_file(const std::string& path, const nlohmann::json& recommendation) {
  std::ofstream out(path);
  out << recommendation.dump(2) << "\n";
  out.flush();
  if (!out) throw InputError("cannot write the recommendation to '" + path + "'");
}

}  // namespace commtune
