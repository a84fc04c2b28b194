#include "host/gpu_host_facts.hpp"

#include <filesystem>
#include <fstream>

#include "host/program_output.hpp"

namespace commtune {
namespace {

namespace fs = std::filesystem;

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

nlohmann::json port_facts(const fs::path& port) {
  return {{"port", port.filename().string()},
          {"state", first_line(port / "state")},
          {"rate", first_line(port / "rate")},
          {"link_layer", first_line(port / "link_layer")}};
}

}  // namespace

nlohmann::json gpu_topology_matrix() {
  const auto matrix = program_output({"nvidia-smi", "topo", "-m"}, std::chrono::seconds(10));
  if (!matrix)
    return {{"unavailable", "nvidia-smi topo -m did not run (not installed, no driver, or failed)"}};
  return {{"source", "nvidia-smi topo -m"}, {"matrix", *matrix}};
}

nlohmann::json infiniband_devices(const std::string& root) {
  nlohmann::json devices = nlohmann::json::array();
  std::error_code error;
  for (const auto& device : fs::directory_iterator(root, error)) {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& port : fs::directory_iterator(device.path() / "ports", error))
      ports.push_back(port_facts(port.path()));
    devices.push_back({{"name", device.path().filename().string()}, {"ports", ports}});
  }
  return devices;
}

}  // namespace commtune
