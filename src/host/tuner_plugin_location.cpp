#include "host/tuner_plugin_location.hpp"

#include <dlfcn.h>

#include <filesystem>

#ifndef COMMTUNE_INSTALL_LIBDIR
#define COMMTUNE_INSTALL_LIBDIR "lib"
#endif

namespace commtune {

TunerPluginLocation find_tuner_plugin() {
  namespace fs = std::filesystem;
  TunerPluginLocation found;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    found.problem = "cannot tell where the commtune executable is: " + error.message();
    return found;
  }
  const char* name = "libnccl-tuner-commtune.so";
  const fs::path dir = self.parent_path();
  for (const fs::path& candidate : {dir / "lib" / name, dir / ".." / COMMTUNE_INSTALL_LIBDIR / name}) {
    if (!fs::is_regular_file(candidate, error)) continue;
    found.path = fs::weakly_canonical(candidate, error).string();
    if (error) found.path = candidate.string();
    break;
  }
  if (found.path.empty()) {
    found.problem =
        std::string(name) + " is not beside this executable (lib/ or ../" + COMMTUNE_INSTALL_LIBDIR + "/)";
    return found;
  }
  void* handle = dlopen(found.path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    found.problem = std::string("cannot load it: ") + (why ? why : "unknown reason");
    return found;
  }
  for (const char* version : {"v5", "v6"})
    if (dlsym(handle, (std::string("ncclTunerPlugin_") + version).c_str()) != nullptr)
      found.abi_versions.push_back(version);
  dlclose(handle);
  return found;
}

}  // namespace commtune
