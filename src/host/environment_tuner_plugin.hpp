#pragma once
// Which tuner plugin NCCL 2.28 would load by itself from an environment (src/plugin/tuner.cc,
// plugin_open.cc): NCCL_TUNER_PLUGIN when set (`none` included: that disables tuners); else
// libnccl-tuner.so when the dynamic loader finds it; else the net plugin's library (NCCL_NET_PLUGIN,
// as given or as libnccl-net-NAME.so, else libnccl-net.so) when it exports a tuner. Probing loads a
// candidate with dlopen (RTLD_LAZY | RTLD_LOCAL) and closes it again, as NCCL would load it.
#include <functional>
#include <string>
#include <vector>

namespace commtune {

// Whether a library loads, whether it exports ncclTunerPlugin_v2 .. _v6, and whether it exports a
// CollNet plugin (ncclCollNetPlugin_v5 .. _v11).
struct LibraryProbe {
  std::function<bool(const std::string& name)> loads;
  std::function<bool(const std::string& name)> exports_tuner;
  std::function<bool(const std::string& name)> exports_collnet = [](const std::string&) { return false; };
};

LibraryProbe dynamic_loader_probe();

// What the environment (NAME=value entries) loads as a tuner, in words; empty when nothing.
std::string environment_tuner_plugin(const std::vector<std::string>& environment, const LibraryProbe& probe);

// Whether NCCL would find a CollNet plugin from this environment: the net plugin it loads
// (NCCL_NET_PLUGIN as above, else libnccl-net.so; `none`: nothing) exports one. Without it,
// NCCL_COLLNET_ENABLE=1 leaves NCCL no CollNet algorithm.
bool environment_collnet_plugin(const std::vector<std::string>& environment, const LibraryProbe& probe);

}  // namespace commtune
