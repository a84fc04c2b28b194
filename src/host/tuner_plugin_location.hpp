#pragma once
// Where commtune's NCCL tuner plugin (libnccl-tuner-commtune.so) is, seen from the running
// executable: <exe dir>/lib/ in the build tree, <exe dir>/../<lib dir>/ once installed
// (`cmake --install`); and which tuner ABI versions it exports (dlopen + dlsym of
// ncclTunerPlugin_v5 / _v6, as NCCL looks them up).
#include <string>
#include <vector>

namespace commtune {

struct TunerPluginLocation {
  std::string path;                       // absolute; empty when not found
  std::vector<std::string> abi_versions;  // "v5", "v6" as exported
  std::string problem;                    // why path or versions are missing
};

TunerPluginLocation find_tuner_plugin();

}  // namespace commtune
