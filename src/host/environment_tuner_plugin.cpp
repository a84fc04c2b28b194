#include "host/environment_tuner_plugin.hpp"

#include <dlfcn.h>

#include <initializer_list>
#include <optional>

namespace commtune {
namespace {

std::optional<std::string> variable(const std::vector<std::string>& environment, const std::string& name) {
  for (const auto& entry : environment)  // the first wins, as getenv
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=')
      return entry.substr(name.size() + 1);
  return std::nullopt;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// NCCL's candidates for a plugin name: as given, then libnccl-net-NAME.so for a bare NAME.
std::vector<std::string> net_candidates(const std::optional<std::string>& name) {
  if (!name || name->empty()) return {"libnccl-net.so"};
  std::vector<std::string> out{*name};
  if (name->find('/') == std::string::npos && !(name->rfind("lib", 0) == 0 && ends_with(*name, ".so")))
    out.push_back("libnccl-net-" + *name + ".so");
  return out;
}

bool with_library(const std::string& name, const std::function<bool(void*)>& use) {
  void* handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) return false;
  const bool result = use(handle);
  dlclose(handle);
  return result;
}

// Whether the library loads and exports any of `symbols`.
bool exports_any(const std::string& name, std::initializer_list<const char*> symbols) {
  return with_library(name, [symbols](void* handle) {
    for (const char* symbol : symbols)
      if (dlsym(handle, symbol) != nullptr) return true;
    return false;
  });
}

// The net plugin NCCL would load from this environment (NCCL_NET_PLUGIN as given or as
// libnccl-net-NAME.so, else libnccl-net.so; `none`: nothing).
std::optional<std::string> loaded_net_plugin(const std::vector<std::string>& environment,
                                             const LibraryProbe& probe) {
  const std::optional<std::string> net = variable(environment, "NCCL_NET_PLUGIN");
  if (net && *net == "none") return std::nullopt;
  for (const std::string& candidate : net_candidates(net))
    if (probe.loads(candidate)) return candidate;
  return std::nullopt;
}

}  // namespace

LibraryProbe dynamic_loader_probe() {
  return LibraryProbe{
      [](const std::string& name) { return with_library(name, [](void*) { return true; }); },
      [](const std::string& name) {
        return exports_any(name, {"ncclTunerPlugin_v6", "ncclTunerPlugin_v5", "ncclTunerPlugin_v4",
                                  "ncclTunerPlugin_v3", "ncclTunerPlugin_v2"});
      },
      [](const std::string& name) {
        return exports_any(name, {"ncclCollNetPlugin_v11", "ncclCollNetPlugin_v10", "ncclCollNetPlugin_v9",
                                  "ncclCollNetPlugin_v8", "ncclCollNetPlugin_v7", "ncclCollNetPlugin_v6",
                                  "ncclCollNetPlugin_v5"});
      }};
}

bool environment_collnet_plugin(const std::vector<std::string>& environment, const LibraryProbe& probe) {
  const std::optional<std::string> net = loaded_net_plugin(environment, probe);
  return net && probe.exports_collnet(*net);
}

std::string environment_tuner_plugin(const std::vector<std::string>& environment, const LibraryProbe& probe) {
  if (const auto tuner = variable(environment, "NCCL_TUNER_PLUGIN")) return "NCCL_TUNER_PLUGIN=" + *tuner;
  if (probe.loads("libnccl-tuner.so"))
    return "libnccl-tuner.so (NCCL loads it when NCCL_TUNER_PLUGIN is unset)";
  const std::optional<std::string> net = loaded_net_plugin(environment, probe);
  if (!net || !probe.exports_tuner(*net)) return "";
  return *net + " (the net plugin's own tuner, which NCCL loads when NCCL_TUNER_PLUGIN is unset)";
}

}  // namespace commtune
