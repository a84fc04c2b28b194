#include <sstream>

#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

// tmpfs's size= option: "65536k", "64m", "1g", "12345" (bytes); a percentage means a share of RAM.
std::optional<std::uint64_t> tmpfs_size(const std::string& options) {
  std::istringstream list(options);
  for (std::string option; std::getline(list, option, ',');) {
    if (option.rfind("size=", 0) != 0) continue;
    const std::string value = option.substr(5);
    if (value.empty() || value.back() == '%') return std::nullopt;
    std::uint64_t n = std::strtoull(value.c_str(), nullptr, 10);
    switch (value.back()) {
      case 'k':
      case 'K':
        n <<= 10;
        break;
      case 'm':
      case 'M':
        n <<= 20;
        break;
      case 'g':
      case 'G':
        n <<= 30;
        break;
      default:
        break;
    }
    return n;
  }
  return std::nullopt;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

void check_shm(const SystemTree& tree, std::vector<Finding>& out) {
  std::istringstream mounts(tree.content("proc/mounts").value_or(""));
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    std::string device, point, type, options;
    fields >> device >> point >> type >> options;
    if (point != "/dev/shm") continue;
    const auto size = tmpfs_size(options);
    if (size && *size < kGiB)
      out.push_back(
          Finding{"shm-small", Severity::Warning, "/dev/shm",
                  "tmpfs of " + mib(*size) + " (proc/mounts: " + line.substr(0, 120) + ")",
                  "give the container more shared memory (docker --shm-size=16g or --ipc=host); NCCL's SHM "
                  "transport and Open MPI's vader need it and fail or fall back when it is full"});
    return;
  }
}

// RDMA needs locked memory; without RDMA ports a small limit is only worth knowing.
void check_memlock(const SystemFacts& facts, bool rdma, std::vector<Finding>& out) {
  if (!facts.memlock_bytes || *facts.memlock_bytes >= 64 * kGiB) return;
  out.push_back(Finding{
      "memlock-limited", rdma ? Severity::Warning : Severity::Info, "memlock limit",
      "RLIMIT_MEMLOCK is " + std::to_string(*facts.memlock_bytes >> 10) + " KiB",
      "raise it to unlimited (docker --ulimit memlock=-1, limits.conf `* - memlock unlimited`, "
      "Slurm PropagateResourceLimits); RDMA registration of NCCL's buffers fails under a small limit"});
}

}  // namespace

std::vector<Finding> check_container_limits(const SystemTree& tree, const SystemFacts& facts) {
  std::vector<Finding> out;
  check_shm(tree, out);
  check_memlock(facts, !read_rdma_ports(tree).empty(), out);
  return out;
}

}  // namespace commtune
