// The simulated worker: answers like the NCCL worker, with timings from an alpha-beta model whose
// figures depend on the setting's NCCL_ALGO / NCCL_PROTO, plus a little deterministic noise. With
// COMMTUNE_SIMULATED_NODE_LINK_GBPS, a communicator over several nodes (its nodes as the supervisor's
// split request gives them) is held to that network rate, a quarter of it when one of its ranks
// is in COMMTUNE_SIMULATED_SLOW_RANK (a node whose link is slow), so that communicator groups on an
// emulated cluster show which groups cross the slow link. Like
// NCCL it loads the environment's tuner plugin and asks it before every collective (the barrier
// before a timed batch included; never on a one-rank communicator, as NCCL), with a cost table of its own
// (simulated_tuner.hpp): the timings model does not follow that table, as a real NCCL's measured times need
// not follow its cost model.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/collective_traits.hpp"
#include "backend/nccl/simulated/simulated_engine.hpp"
#include "backend/nccl/simulated/simulated_machine.hpp"
#include "backend/nccl/simulated/simulated_tuner.hpp"
#include "backend/nccl/supervisor/nccl_backend.hpp"

namespace commtune {
namespace {

constexpr double kPairLatencyUs = 3.0;   // one 8-byte exchange
constexpr double kPairBandwidth = 40e9;  // bytes per second per direction

class SimulatedEngine : public WorkerEngine {
  // A communicator: the world's or a group spec's.
  struct SimulatedComm {
    std::string name;
    std::vector<int> ranks;  // job ranks
    int nodes = 1;
    std::shared_ptr<SimulatedTuner> tuner;
  };

 public:
  explicit SimulatedEngine(const WorkerIdentity& identity)
      : identity_(identity),
        jitter_(timing_jitter()),
        cpu_share_(host_cpu_share(identity.rank)),
        spend_time_(spends_modelled_time()),
        noise_(1000u + static_cast<unsigned>(identity.rank)) {}

  nlohmann::json probe() override {
    nlohmann::json devices = nlohmann::json::array();
    const std::vector<int> gpus = simulated_visible_gpus();
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
    tuner_ = std::make_shared<SimulatedTuner>(
        identity_.nranks, simulated_variable("NCCL_HOSTID").empty() ? 1 : identity_.nranks);
    world_ = SimulatedComm{.name = "world", .ranks = {}, .nodes = 1, .tuner = tuner_};
    for (int r = 0; r < identity_.nranks; ++r) world_.ranks.push_back(r);
    log_init();
    spend(nccl_setting_start_s(identity_.nranks));
    return {
        {"nccl_version", "simulated"},
        {"device", {{"index", identity_.device}, {"total_bytes", 80ull << 30}, {"free_bytes", 79ull << 30}}}};
  }

  // As NCCL, one tuner context per communicator: the group's ranks and nodes (emulated nodes: each
  // rank its own).
  void split(const SplitRequest& request) override {
    if (!tuner_) throw CommunicatorLost("simulated split: no communicator");
    world_.nodes = request.world_nodes;
    const bool emulated = !simulated_variable("NCCL_HOSTID").empty();
    for (const GroupSplit& s : request.groups) {
      const int nranks = static_cast<int>(s.ranks.size());
      groups_.push_back(
          SimulatedComm{.name = s.name,
                        .ranks = s.ranks,
                        .nodes = s.nodes,
                        .tuner = std::make_shared<SimulatedTuner>(nranks, emulated ? nranks : s.nodes)});
    }
  }

  void prepare(const CaseRequest& request) override {
    comm_ = &comm_of(request.spec.group);
    case_ = request.spec;
    graph_ = request.graph;
    spend(kNcclCaseOverheadS);
    contend_ = request.contend;
    prepared_ = true;
  }

  // The step's calls from the model, each call's repeats back to back, with the timings' noise;
  // read on the CUDA events' grid as the NCCL engine's are.
  ReplayedSteps replay(const StepsRequest& request) override {
    if (!tuner_) throw CommunicatorLost("simulated replay: no communicator");
    ReplayedSteps out{.step_seconds = std::vector<double>(request.steps, 0.0), .call_seconds = {}};
    std::normal_distribution<double> jitter(1.0, jitter_);
    for (const StepCallRequest& call : request.calls) {
      const double each = model_seconds(call.spec, comm_of(call.spec.group)) *
                          static_cast<double>(call.repeat) * contention_factor(request.contend);
      std::vector<double> seconds;
      for (std::size_t s = 0; s < request.steps; ++s) {
        seconds.push_back(event_interval(each * std::max(0.9, jitter(noise_))));
        out.step_seconds[s] += seconds.back();
      }
      out.call_seconds.push_back(std::move(seconds));
    }
    spend(std::accumulate(out.step_seconds.begin(), out.step_seconds.end(), 0.0));
    return out;
  }

  // As the NCCL engine: a check or a timing needs a prepared case.
  void release_case() override { prepared_ = false; }

  std::int64_t check() override {
    require_case();
    before_collective(case_.bytes);
    spend(model_seconds(case_, *comm_) * contention_factor(contend_));
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
    const double base = model_seconds(case_, *comm_) * contention_factor(contend_);
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
    spend(loop);
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

  void finish() override {
    groups_.clear();
    world_ = SimulatedComm{};
    tuner_.reset();
  }

 private:
  // The modelled time on the clock, where the simulation spends it (spends_modelled_time).
  void spend(double seconds) const {
    if (spend_time_ && seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }

  // Latency + bytes over bandwidth; a forced algorithm / protocol shifts both, so that settings
  // differ the way a tuner expects them to.
  static double model_seconds(const Case& c, const SimulatedComm& comm) {
    const std::string algo = simulated_variable("NCCL_ALGO"), proto = simulated_variable("NCCL_PROTO");
    const double latency = (proto == "LL" ? 4e-6 : 8e-6) * (algo == "Tree" ? 0.8 : 1.0);
    const double bandwidth = (proto == "LL" ? 20e9 : 80e9) * (algo == "Tree" ? 0.9 : 1.0);
    const double factor = traits_of(c.collective).bus_factor(static_cast<int>(comm.ranks.size()));
    return latency + static_cast<double>(c.bytes) * std::max(factor, 0.5) /
                         std::min(bandwidth, network_bytes_per_s(comm.ranks, comm.nodes));
  }

  // A made-up slowdown under --contend (1 + F / 2): the simulation needs a load to show; what a
  // real one costs is what the GPU measures.
  static double contention_factor(double fraction) { return 1.0 + 0.5 * fraction; }

  // The world's communicator, or the one split for `spec`.
  const SimulatedComm& comm_of(const GroupSpec& spec) const {
    if (spec.is_world()) return world_;
    for (const SimulatedComm& g : groups_)
      if (g.name == spec.name()) return g;
    throw BackendError("no communicator was split for group spec '" + spec.name() + "'");
  }

  int nranks() const { return static_cast<int>(comm_->ranks.size()); }

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
    const std::string path = simulated_variable("COMMTUNE_SIMULATED_INIT_LOG");
    if (path.empty()) return;
    std::ofstream(path, std::ios::app)
        << "rank " << identity_.rank << " NCCL_ALGO=" << simulated_variable("NCCL_ALGO")
        << " NCCL_PROTO=" << simulated_variable("NCCL_PROTO") << "\n";
  }

  void before_collective(std::uint64_t bytes) {
    if (comm_ && comm_->tuner) comm_->tuner->before_collective(case_.collective, bytes);
  }

  // The barrier's size: one element per rank, as NCCL counts bytes (the whole buffer for
  // all-gather and reduce-scatter).
  std::uint64_t barrier_bytes() const {
    const bool gathers = size_is_total(case_.collective);
    return size_of(case_.dtype) * static_cast<std::uint64_t>(gathers ? nranks() : 1);
  }

  WorkerIdentity identity_;
  std::shared_ptr<SimulatedTuner> tuner_;  // the world communicator's
  SimulatedComm world_;
  std::vector<SimulatedComm> groups_;
  const SimulatedComm* comm_ = nullptr;  // the prepared case's
  Case case_;
  bool graph_ = false;
  double contend_ = 0;
  bool prepared_ = false;
  double jitter_;     // read once: the environment does not change while the worker runs
  double cpu_share_;  // likewise
  bool spend_time_;   // likewise
  std::mt19937 noise_;
};

}  // namespace

std::unique_ptr<WorkerEngine> make_simulated_engine(const WorkerIdentity& identity) {
  return std::make_unique<SimulatedEngine>(identity);
}

}  // namespace commtune
