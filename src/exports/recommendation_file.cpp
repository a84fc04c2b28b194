#include "exports/recommendation_file.hpp"

namespace commtune {

void write_recommendation_file(const std::string& path, const nlohmann::json& recommendation,
                               const OutputPolicy& policy) {
  write_output_file(path, recommendation.dump(2) + "\n", policy);
}

}  // namespace commtune
