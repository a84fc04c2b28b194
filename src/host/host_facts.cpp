#include "host/host_facts.hpp"

#include <hwloc.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/program_output.hpp"

namespace commtune {

namespace {

std::uint64_t meminfo_bytes(const std::string& wanted) {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == wanted) return kib * 1024;
  return 0;
}

}  // namespace

std::uint64_t available_memory_bytes() { return meminfo_bytes("MemAvailable:"); }

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

std::string kernel_release() {
  struct utsname info {};
  if (uname(&info) != 0) return "unknown";
  return std::string(info.sysname) + " " + info.release + " " + info.machine;
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

namespace {

int count_of(hwloc_topology_t topology, hwloc_obj_type_t type) {
  const int n = hwloc_get_nbobjs_by_type(topology, type);
  return n < 0 ? 0 : n;
}

}  // namespace

nlohmann::json host_topology() {
  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0) return {};
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    return {};
  }
  const hwloc_obj_t root = hwloc_get_root_obj(topology);
  const hwloc_obj_t package = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, 0);
  const char* model = package ? hwloc_obj_get_info_by_name(package, "CPUModel") : nullptr;
  nlohmann::json facts{{"cpu_model", model ? model : "unknown"},
                       {"packages", count_of(topology, HWLOC_OBJ_PACKAGE)},
                       {"cores", count_of(topology, HWLOC_OBJ_CORE)},
                       {"hardware_threads", count_of(topology, HWLOC_OBJ_PU)},
                       {"numa_nodes", count_of(topology, HWLOC_OBJ_NUMANODE)},
                       // The kernel's total: NUMA node figures (hwloc's) can miss memory on VMs.
                       {"memory_bytes", meminfo_bytes("MemTotal:")},
                       {"numa_memory_bytes", root ? root->total_memory : 0}};
  hwloc_topology_destroy(topology);
  return facts;
}

namespace {

// Launcher plumbing (daemon URIs, session dirs, job keys) says nothing about performance and
// some of it is secret-like: keep user-set MCA parameters, drop the rest of OMPI_*/PMIX_*.
bool is_launcher_plumbing(std::string_view name) {
  // mpirun's own plumbing; OMPI_MCA_mpi_yield_when_idle is not: mpirun sets it on oversubscribed
  // hosts and it changes small-message latency by orders of magnitude, so it is recorded.
  static constexpr std::array<std::string_view, 5> kPlumbing{
      "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir", "OMPI_MCA_shmem_RUNTIME"};
  if (name.starts_with("PMIX_") || (name.starts_with("OMPI_") && !name.starts_with("OMPI_MCA_"))) return true;
  for (std::string_view prefix : kPlumbing)
    if (name.starts_with(prefix)) return true;
  return false;
}

}  // namespace

std::map<std::string, std::string> relevant_environment(char** environ_list) {
  // MALLOC_ and GLIBC_TUNABLES: glibc malloc's settings, which the MPI backend leaves as they are
  // set (backend/mpi/heap_thresholds).
  static constexpr std::array<std::string_view, 11> kPrefixes{
      "NCCL_",   "OMPI_MCA_", "CUDA_",  "SLURM_JOB_", "UCX_",          "OPAL_",
      "NVIDIA_", "COMMTUNE_", "HWLOC_", "MALLOC_",    "GLIBC_TUNABLES"};
  std::map<std::string, std::string> out;
  for (char** entry = environ_list; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view name = text.substr(0, equals);
    if (is_launcher_plumbing(name)) continue;
    for (std::string_view prefix : kPrefixes)
      if (name.starts_with(prefix)) out.emplace(name, text.substr(equals + 1));
  }
  return out;
}

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
