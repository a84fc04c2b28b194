#include <sstream>

#include "doctor/system_checks.hpp"

namespace commtune {

// nvidia-smi's CSV, one GPU a line: "00000000:18:00.0, Exclusive_Process". Exclusive process
// lets one process per GPU make a context: several ranks (or a worker and its probe) on one GPU
// fail; Prohibited lets none.
std::vector<Finding> check_compute_mode(const SystemFacts& facts) {
  if (!facts.compute_modes) return {};
  std::vector<Finding> out;
  std::istringstream lines(*facts.compute_modes);
  for (std::string line; std::getline(lines, line);) {
    const auto comma = line.find(',');
    if (comma == std::string::npos) continue;
    const std::string bus = line.substr(0, comma);
    std::string mode = line.substr(comma + 1);
    mode.erase(0, mode.find_first_not_of(' '));
    while (!mode.empty() && (mode.back() == ' ' || mode.back() == '\r')) mode.pop_back();
    if (mode == "Default") continue;
    const bool prohibited = mode == "Prohibited";
    out.push_back(
        Finding{"gpu-compute-mode", prohibited ? Severity::Critical : Severity::Warning, "GPU " + bus,
                "compute mode " + mode + " (nvidia-smi --query-gpu=pci.bus_id,compute_mode)",
                "`nvidia-smi -i " + bus + " -c DEFAULT` (as root) unless the cluster wants it; with " + mode +
                    (prohibited ? " no process can use the GPU" : " only one process per GPU can run")});
  }
  return out;
}

}  // namespace commtune
