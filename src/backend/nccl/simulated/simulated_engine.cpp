// The simulated worker: answers like the NCCL worker, with timings from an alpha-beta model whose
// figures depend on the setting's NCCL_ALGO / NCCL_PROTO, plus a little deterministic noise. Like
// NCCL it loads the environment's tuner plugin and asks it before every collective (the barrier
// before a timed batch included; never on a one-rank communicator, as NCCL), with a cost table of its own
// (simulated_tuner.hpp): the timings model does not follow that table, as a real NCCL's measured times need
// not follow its cost model.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/collective_traits.hpp"
#include "backend/nccl/simulated/simulated_engine.hpp"
#include "backend/nccl/simulated/simulated_tuner.hpp"

namespace commtune {
namespace {

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The simulated machine's GPUs that this process sees, as CUDA numbers them: all of them, or
// those CUDA_VISIBLE_DEVICES lists, in its order, up to the first entry that is not one of them.
constexpr double kPairLatencyUs = 3.0;   // one 8-byte exchange
constexpr double kPairBandwidth = 40e9;  // bytes per second per direction

// Whether `rank` is listed in COMMTUNE_SIMULATED_SLOW_RANK, or the pair in
// COMMTUNE_SIMULATED_SLOW_LINK ("A-B,C-D"): variables of the simulated machine, which only the
// test build's simulated engine reads. Either slows the pair's link to a quarter.
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
  const bool slow = listed_pair(environment_value("COMMTUNE_SIMULATED_SLOW_LINK"), a, b) ||
                    listed_pair(environment_value("COMMTUNE_SIMULATED_SLOW_RANK"), a, b);
  return slow ? 0.25 : 1.0;
}

std::vector<int> visible_gpus() {
  const char* list = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<int> gpus;
  if (list == nullptr) {
    for (int d = 0; d < kSimulatedGpuCount; ++d) gpus.push_back(d);
    return gpus;
  }
  for (const std::string& entry : comma_entries(list)) {
    if (entry.size() != 1 || entry[0] < '0' || entry[0] >= '0' + kSimulatedGpuCount) break;
    gpus.push_back(entry[0] - '0');
  }
  return gpus;
}

class SimulatedEngine : public WorkerEngine {
 public:
  explicit SimulatedEngine(const WorkerIdentity& identity)
      : identity_(identity),
        jitter_(timing_jitter()),
        cpu_share_(host_cpu_share(identity.rank)),
        noise_(1000u + static_cast<unsigned>(identity.rank)) {}

  nlohmann::json probe() override {
    nlohmann::json devices = nlohmann::json::array();
    const std::vector<int> gpus = visible_gpus();
    for (std::size_t d = 0; d < gpus.size(); ++d)
      devices.push_back(
          {{"index", d},
           {"name", "simulated GPU"},
           {"pci_bus_id", "0000:0" + std::to_string(gpus[d]) + ":00.0"},
           {"total_bytes", 80ull << 30},
           {"multicast", false}});  // no free memory: the real probe makes no context; no NVSwitch
    return {{"simulated", true},
            {"nccl_version", "simulated"},
            {"cuda_runtime", "simulated"},
            {"cuda_driver", "simulated"},
            {"devices", devices}};
  }

  std::string unique_id() override { return std::string(256, 'a'); }

  nlohmann::json init(const std::string& id, const CommConfig&) override {
    if (id.size() != 256) throw CommunicatorLost("simulated init: malformed unique id");
    // NCCL's nodes: hosts, and every rank its own with a distinct NCCL_HOSTID (emulated nodes).
    tuner_ = std::make_unique<SimulatedTuner>(
        identity_.nranks, environment_value("NCCL_HOSTID").empty() ? 1 : identity_.nranks);
    log_init();
    return {
        {"nccl_version", "simulated"},
        {"device", {{"index", identity_.device}, {"total_bytes", 80ull << 30}, {"free_bytes", 79ull << 30}}}};
  }

  void prepare(const CaseRequest& request) override {
    case_ = request.spec;
    graph_ = request.graph;
    prepared_ = true;
  }

  // As the NCCL engine: a check or a timing needs a prepared case.
  void release_case() override { prepared_ = false; }

  std::int64_t check() override {
    require_case();
    before_collective(case_.bytes);
    return 0;
  }

  // Shaped like the NCCL engine's answer: per-iteration seconds, or one graph mean.
  // Each interval is read off a clock of CUDA events' resolution (kCudaEventResolutionS), as the
  // NCCL engine's: one per iteration, or one per block of `block`.
  TimedBatch time(std::size_t iterations, std::size_t block) override {
    require_case();
    if (block == 0 || iterations % block != 0)
      throw BackendError("simulated time: iterations are not whole blocks");
    before_collective(barrier_bytes());
    before_collective(case_.bytes);
    const double base = model_seconds();
    std::normal_distribution<double> jitter(1.0, jitter_);
    std::vector<double> seconds(iterations);
    for (auto& s : seconds) s = base * std::max(0.9, jitter(noise_));
    const double loop = event_interval(std::accumulate(seconds.begin(), seconds.end(), 0.0));
    std::vector<double> samples;
    for (std::size_t first = 0; first < iterations; first += block)
      samples.push_back(
          event_interval(std::accumulate(seconds.begin() + static_cast<std::ptrdiff_t>(first),
                                         seconds.begin() + static_cast<std::ptrdiff_t>(first + block), 0.0)) /
          static_cast<double>(block));
    TimedBatch batch = graph_ ? TimedBatch{{loop / static_cast<double>(iterations)}, loop}
                              : TimedBatch{std::move(samples), loop};
    std::normal_distribution<double> share_noise(1.0, 0.02);
    batch.wall_seconds = loop;  // the host thread's modelled share of the CPU over the batch
    batch.cpu_seconds = loop * std::clamp(cpu_share_ * share_noise(noise_), 0.0, 1.0);
    return batch;
  }

  // The pairwise map's round from a model: latency + bytes / bandwidth per exchange, a little
  // noise, and a link slowed to a quarter where the simulation says so (slow_factor).
  PairSamples pairwise(const PairwiseRequest& r) override {
    if (!tuner_) throw CommunicatorLost("simulated pairwise: no communicator");
    if (r.peer < 0) return {};
    if (r.peer >= identity_.nranks || r.peer == identity_.rank)
      throw BackendError("simulated pairwise: peer out of range");
    const double factor = slow_factor(identity_.rank, r.peer);
    std::normal_distribution<double> jitter(1.0, 0.01);
    PairSamples out;
    for (int s = 0; s < r.samples; ++s) {
      out.latency_us.push_back(kPairLatencyUs / factor * std::max(0.9, jitter(noise_)));
      const double seconds = kPairLatencyUs * 1e-6 + static_cast<double>(r.bytes) / (kPairBandwidth * factor);
      out.gbps.push_back(static_cast<double>(r.bytes) / seconds / 1e9 / std::max(0.9, jitter(noise_)));
    }
    return out;
  }

  void finish() override { tuner_.reset(); }

 private:
  // Latency + bytes over bandwidth; a forced algorithm / protocol shifts both, so that settings
  // differ the way a tuner expects them to.
  double model_seconds() const {
    const std::string algo = environment_value("NCCL_ALGO"), proto = environment_value("NCCL_PROTO");
    const double latency = (proto == "LL" ? 4e-6 : 8e-6) * (algo == "Tree" ? 0.8 : 1.0);
    const double bandwidth = (proto == "LL" ? 20e9 : 80e9) * (algo == "Tree" ? 0.9 : 1.0);
    const double factor = traits_of(case_.collective).bus_factor(identity_.nranks);
    return latency + static_cast<double>(case_.bytes) * std::max(factor, 0.5) / bandwidth;
  }

  // The relative spread of the modelled timings: 1%, or COMMTUNE_SIMULATED_JITTER (above 0,
  // below 1) for tests that need noisier cases (racing's undecided rounds).
  static double timing_jitter() {
    const std::string text = environment_value("COMMTUNE_SIMULATED_JITTER");
    const double given = text.empty() ? 0 : std::strtod(text.c_str(), nullptr);
    return given > 0 && given < 1 ? given : 0.01;
  }

  // The host thread's share of the CPU while it times a batch: 0.95, or what
  // COMMTUNE_SIMULATED_CPU_SHARE ("RANK:SHARE,...", shares above 0 up to 1) gives this rank, for
  // tests of the straggler finding (a worker starved of the CPU).
  static double host_cpu_share(int rank) {
    const std::string prefix = std::to_string(rank) + ":";
    for (const std::string& entry : comma_entries(environment_value("COMMTUNE_SIMULATED_CPU_SHARE"))) {
      if (entry.rfind(prefix, 0) != 0) continue;
      const double share = std::strtod(entry.c_str() + prefix.size(), nullptr);
      if (share > 0 && share <= 1) return share;
    }
    return 0.95;
  }

  // An interval as CUDA events read it: on a grid of their resolution.
  static double event_interval(double seconds) {
    return std::round(seconds / kCudaEventResolutionS) * kCudaEventResolutionS;
  }

  void require_case() const {
    if (!prepared_) throw BackendError("simulated worker: no case prepared (released, or never prepared)");
  }

  // COMMTUNE_SIMULATED_INIT_LOG=FILE: one line per communicator init, "rank R NCCL_ALGO=.. NCCL_PROTO=..",
  // so that tests count how often each setting's workers started.
  void log_init() const {
    const std::string path = environment_value("COMMTUNE_SIMULATED_INIT_LOG");
    if (path.empty()) return;
    std::ofstream(path, std::ios::app)
        << "rank " << identity_.rank << " NCCL_ALGO=" << environment_value("NCCL_ALGO")
        << " NCCL_PROTO=" << environment_value("NCCL_PROTO") << "\n";
  }

  void before_collective(std::uint64_t bytes) {
    if (tuner_) tuner_->before_collective(case_.collective, bytes);
  }

  // The barrier's size: one element per rank, as NCCL counts bytes (the whole buffer for
  // all-gather and reduce-scatter).
  std::uint64_t barrier_bytes() const {
    const bool gathers = size_is_total(case_.collective);
    return size_of(case_.dtype) * static_cast<std::uint64_t>(gathers ? identity_.nranks : 1);
  }

  WorkerIdentity identity_;
  std::unique_ptr<SimulatedTuner> tuner_;
  Case case_;
  bool graph_ = false;
  bool prepared_ = false;
  double jitter_;     // read once: the environment does not change while the worker runs
  double cpu_share_;  // likewise
  std::mt19937 noise_;
};

}  // namespace

std::unique_ptr<WorkerEngine> make_simulated_engine(const WorkerIdentity& identity) {
  return std::make_unique<SimulatedEngine>(identity);
}

}  // namespace commtune
