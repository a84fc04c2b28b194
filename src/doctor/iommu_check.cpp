#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

bool has_word(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool start = at == 0 || text[at - 1] == ' ';
    const std::size_t end = at + word.size();
    if (start && (end == text.size() || text[end] == ' ')) return true;
  }
  return false;
}

}  // namespace

// An IOMMU that translates DMA (not passthrough) puts every GPU peer and RDMA access through
// address translation: P2P may fail, bandwidth drops. iommu=pt or identity groups are fine.
std::vector<Finding> check_iommu(const SystemTree& tree, const std::vector<PciDevice>& devices) {
  bool gpus = false;
  for (const auto& d : devices) gpus = gpus || is_gpu(d);
  const auto units = tree.names("sys/class/iommu");
  const std::string cmdline = tree.line("proc/cmdline").value_or("");
  int translated = 0, groups = 0;
  for (const auto& group : tree.names("sys/kernel/iommu_groups")) {
    const auto type = tree.line("sys/kernel/iommu_groups/" + group + "/type");
    if (!type) continue;
    ++groups;
    if (type->rfind("DMA", 0) == 0) ++translated;
  }
  if (units.empty() || !gpus) return {};
  const bool passthrough = has_word(cmdline, "iommu=pt") || has_word(cmdline, "intel_iommu=off") ||
                           has_word(cmdline, "amd_iommu=off");
  if (translated == 0 && (groups > 0 || passthrough)) return {};
  const std::string evidence =
      "IOMMU unit(s) " + units.front() +
      (units.size() > 1 ? " and " + std::to_string(units.size() - 1) + " more" : "") +
      " in sys/class/iommu; " +
      (groups > 0 ? std::to_string(translated) + " of " + std::to_string(groups) +
                        " IOMMU groups in DMA translation mode"
                  : std::string("no iommu=pt on the kernel command line")) +
      "; proc/cmdline: " + (cmdline.empty() ? "(empty)" : cmdline.substr(0, 120));
  return {
      Finding{"iommu-translation", Severity::Warning, "IOMMU", evidence,
              "boot with iommu=pt (passthrough) on bare metal, or disable VT-d / AMD-Vi if nothing needs it; "
              "translated DMA slows or breaks GPU peer-to-peer and GPUDirect RDMA"}};
}

}  // namespace commtune
