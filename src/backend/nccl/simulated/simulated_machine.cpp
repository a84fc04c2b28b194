#include "backend/nccl/simulated/simulated_machine.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "backend/nccl/simulated/simulated_engine.hpp"

namespace commtune {

std::string simulated_variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

namespace {

// The entries of a comma list, empty ones included ("" is one empty entry).
std::vector<std::string> comma_entries(const std::string& text) {
  std::vector<std::string> entries;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    entries.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return entries;
}

}  // namespace

bool listed_pair(const std::string& list, int a, int b) {
  for (const std::string& entry : comma_entries(list)) {
    const std::size_t dash = entry.find('-');
    if (dash != std::string::npos) {
      const std::string x = entry.substr(0, dash), y = entry.substr(dash + 1);
      if ((x == std::to_string(a) && y == std::to_string(b)) ||
          (x == std::to_string(b) && y == std::to_string(a)))
        return true;
    } else if (entry == std::to_string(a) || entry == std::to_string(b)) {
      return true;
    }
  }
  return false;
}

double slow_factor(int a, int b) {
  const bool slow = listed_pair(simulated_variable("COMMTUNE_SIMULATED_SLOW_LINK"), a, b) ||
                    listed_pair(simulated_variable("COMMTUNE_SIMULATED_SLOW_RANK"), a, b);
  return slow ? 0.25 : 1.0;
}

int simulated_gpu_count() {
  const std::string given = simulated_variable("COMMTUNE_SIMULATED_GPUS");
  return given.size() == 1 && given[0] >= '1' && given[0] <= '8' ? given[0] - '0' : kSimulatedGpuCount;
}

std::vector<int> simulated_visible_gpus() {
  const char* list = std::getenv("CUDA_VISIBLE_DEVICES");
  const int count = simulated_gpu_count();
  std::vector<int> gpus;
  if (list == nullptr) {
    for (int d = 0; d < count; ++d) gpus.push_back(d);
    return gpus;
  }
  for (const std::string& entry : comma_entries(list)) {
    if (entry.size() != 1 || entry[0] < '0' || entry[0] >= '0' + count) break;
    gpus.push_back(entry[0] - '0');
  }
  return gpus;
}

double timing_jitter() {
  const std::string text = simulated_variable("COMMTUNE_SIMULATED_JITTER");
  const double given = text.empty() ? 0 : std::strtod(text.c_str(), nullptr);
  return given > 0 && given < 1 ? given : 0.01;
}

bool spends_modelled_time() { return simulated_variable("COMMTUNE_SIMULATED_REAL_TIME") == "1"; }

double host_cpu_share(int rank) {
  const std::string prefix = std::to_string(rank) + ":";
  for (const std::string& entry : comma_entries(simulated_variable("COMMTUNE_SIMULATED_CPU_SHARE"))) {
    if (entry.rfind(prefix, 0) != 0) continue;
    const double share = std::strtod(entry.c_str() + prefix.size(), nullptr);
    if (share > 0 && share <= 1) return share;
  }
  return 0.95;
}

double network_bytes_per_s(const std::vector<int>& ranks, int nodes) {
  const double gbps = std::strtod(simulated_variable("COMMTUNE_SIMULATED_NODE_LINK_GBPS").c_str(), nullptr);
  if (nodes < 2 || !(gbps > 0)) return std::numeric_limits<double>::infinity();
  const std::string slow = simulated_variable("COMMTUNE_SIMULATED_SLOW_RANK");
  const bool slowed = std::any_of(ranks.begin(), ranks.end(), [&](int r) { return listed_pair(slow, r, r); });
  return gbps * 1e9 * (slowed ? 0.25 : 1.0);
}

}  // namespace commtune
