#include "ceiling/link_rates.hpp"

#include <utility>

namespace commtune {

std::optional<int> nvlink_generation(const std::string& name) {
  // Longest names first: "GH200" before "H200", "GB200" before "B200".
  const std::pair<const char*, int> parts[] = {{"GB200", 5}, {"GH200", 4}, {"B200", 5}, {"B100", 5},
                                               {"H200", 4},  {"H100", 4},  {"H800", 4}, {"A100", 3},
                                               {"A800", 3},  {"V100", 2},  {"P100", 1}};
  for (const auto& [part, generation] : parts)
    if (name.find(part) != std::string::npos) return generation;
  return std::nullopt;
}

double nvlink_link_gbps(int generation) { return generation >= 5 ? 50.0 : generation == 1 ? 20.0 : 25.0; }

double pcie_lane_gbps(int generation) {
  switch (generation) {
    case 1:
      return 0.25;
    case 2:
      return 0.5;
    case 3:
      return 0.985;
    case 4:
      return 1.969;
    case 5:
      return 3.938;
    case 6:
      return 7.877;
    default:
      return 0;
  }
}

}  // namespace commtune
