#include "backend/nccl/simulated/simulated_tuner.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/collective_traits.hpp"
#include "knobs/nccl_functions.hpp"
#include "tuner_plugin/nccl_tuner_abi.hpp"

namespace commtune {

struct SimulatedTuner::Loaded {
  void* library = nullptr;
  const commtune_nccl_tuner_v5_t* tuner = nullptr;
  void* context = nullptr;
};

namespace {

constexpr int kTree = 0, kRing = 1;
constexpr float kLatencyUs[kSimulatedProtocols] = {4.0f, 6.0f, 8.0f};  // LL, LL128, Simple
constexpr float kBandwidthGBps[kSimulatedProtocols] = {20.0f, 60.0f, 80.0f};

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

void* open_tuner_library() {
  const char* requested = std::getenv("NCCL_TUNER_PLUGIN");
  if (requested == nullptr) return dlopen("libnccl-tuner.so", RTLD_NOW | RTLD_LOCAL);
  const std::string name(requested);
  if (name.empty() || name == "none") return nullptr;
  if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  if (name.find('/') != std::string::npos || (name.rfind("lib", 0) == 0 && ends_with(name, ".so")))
    return nullptr;
  return dlopen(("libnccl-tuner-" + name + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
}

}  // namespace

SimulatedCostTable simulated_cost_table(Collective collective, std::uint64_t bytes, int nranks) {
  SimulatedCostTable table;
  table.fill(-1.0f);
  const double moved = static_cast<double>(bytes) * std::max(traits_of(collective).bus_factor(nranks), 0.5);
  for (int algorithm : {kTree, kRing}) {
    if (algorithm == kTree && collective != Collective::AllReduce) continue;
    const double latency_scale = algorithm == kTree ? 0.8 : 1.0,
                 bandwidth_scale = algorithm == kTree ? 0.9 : 1.0;
    for (int p = 0; p < kSimulatedProtocols; ++p)
      table[static_cast<std::size_t>(algorithm * kSimulatedProtocols + p)] = static_cast<float>(
          kLatencyUs[p] * latency_scale + moved / (kBandwidthGBps[p] * bandwidth_scale * 1e3));
  }
  return table;
}

SimulatedTuner::SimulatedTuner(int nranks, int nnodes) : nranks_(nranks) {
  void* library = open_tuner_library();
  if (library == nullptr) return;
  const auto* tuner = static_cast<const commtune_nccl_tuner_v5_t*>(dlsym(library, "ncclTunerPlugin_v5"));
  void* context = nullptr;
  if (tuner == nullptr ||
      tuner->init(&context, 0, static_cast<std::size_t>(nranks), static_cast<std::size_t>(nnodes), nullptr,
                  nullptr, nullptr) != commtuneNcclSuccess) {
    dlclose(library);  // NCCL goes on without a tuner
    return;
  }
  loaded_ = std::make_unique<Loaded>(Loaded{library, tuner, context});
}

SimulatedTuner::~SimulatedTuner() {
  if (!loaded_) return;
  loaded_->tuner->finalize(loaded_->context);
  dlclose(loaded_->library);
}

void SimulatedTuner::before_collective(Collective collective, std::uint64_t bytes) {
  // As NCCL 2.28: a one-rank communicator's collectives go through ncclLaunchOneRank (a copy on
  // the stream), never through the cost model or the tuner (src/enqueue.cc).
  if (!loaded_ || nranks_ == 1) return;
  SimulatedCostTable table = simulated_cost_table(collective, bytes, nranks_);
  int channels = 0;
  loaded_->tuner->getCollInfo(loaded_->context, nccl_function_of(collective), static_cast<std::size_t>(bytes),
                              1, reinterpret_cast<float**>(table.data()), kSimulatedAlgorithms,
                              kSimulatedProtocols, 0, &channels);
}

}  // namespace commtune
