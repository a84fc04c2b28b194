#pragma once
// The NCCL backend as its supervisors see it: each setting gets fresh worker processes (one per
// rank this supervisor owns) with the setting's knobs in their environment; every step they take
// runs under the watchdog and ends with a verdict agreed by all supervisors, so a hang or crash
// becomes a recorded failure and the sweep goes on.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "control/control_plane.hpp"
#include "backend/nccl/supervisor/nccl_run_options.hpp"
#include "backend/nccl/supervisor/worker_process.hpp"
#include "backend/nccl/supervisor/step_outcome.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "plan/groups.hpp"

namespace commtune {

// Which workers this supervisor runs.
struct SupervisorLayout {
  int nranks = 1;                 // workers of the whole job
  std::vector<int> ranks;         // global ranks of this supervisor's workers
  std::vector<int> devices;       // their CUDA devices
  int ranks_per_device = 1;       // most workers sharing one GPU (emulated nodes), all hosts
  int nnodes = 1;                 // NCCL's nodes (hosts; every rank with --emulate-nodes)
  std::vector<int> node_of_rank;  // the host of every rank (the nodes of communicator groups)
  bool nvls_hardware = true;  // every GPU multicast-capable and two or more on each node (true: not known)
};

// How to start a worker: this executable, and the environment every worker starts from.
struct WorkerCommand {
  std::string executable;
  std::vector<std::string> base_environment;  // NAME=value
};

class NcclBackend : public Backend {
 public:
  NcclBackend(ControlPlane& control, SupervisorLayout layout, NcclRunOptions run, WorkerCommand command,
              std::uint64_t device_memory_bytes, nlohmann::json provenance);
  BackendKind kind() const override { return BackendKind::Nccl; }
  PlanLimits limits() const override;
  CostModel cost_model() const override;
  nlohmann::json provenance() const override { return provenance_; }
  void validate(const Setting& setting, const SweepOptions& options) const override;
  std::unique_ptr<SettingSession> open(const Setting& setting, const SweepOptions& options) override;

 private:
  std::unique_ptr<SettingSession> open_workers(const Setting& setting, const SweepOptions& options);
  std::vector<GroupLayout> group_layouts(const SweepOptions& options) const;
  StepOutcome split_groups(WorkerGroup& workers, const std::vector<GroupLayout>& layouts);
  NcclLayout nccl_layout(const Setting& setting) const;
  ControlPlane& control_;
  SupervisorLayout layout_;
  NcclRunOptions run_;
  WorkerCommand command_;
  std::uint64_t device_memory_bytes_;
  nlohmann::json provenance_;
};

// The variables of `base` ("NAME=value") that would override what the worker sets through
// ncclConfig_t (NCCL's parseCommConfig lets the environment win, src/init.cc): NCCL_COMM_BLOCKING
// always (the worker needs a blocking communicator), NCCL_MIN_CTAS / NCCL_MAX_CTAS where the
// setting bounds the CTAs, NCCL_NET where the setting names another network. Left out of the
// worker's environment, and said.
std::vector<std::string> config_overrides(const std::vector<std::string>& base, const Setting& setting);

// The environment of the worker of `rank` for `setting`: base less its config overrides, then the
// knobs (those applied through ncclConfig_t excepted), then the emulated-node identity, then
// `extra` (the record mode's variables of the default setting).
std::vector<std::string> worker_environment(const std::vector<std::string>& base, const Setting& setting,
                                            int rank, bool emulate_nodes,
                                            const std::map<std::string, std::string>& extra = {});

// argv of `commtune worker` for one rank.
std::vector<std::string> worker_arguments(int rank, int nranks, int device);

// What the NCCL backend's cost model counts (NcclBackend::cost_model, docs/racing.md): a setting's
// start (a worker per rank, its CUDA context and NCCL's communicator init) and a case's own
// overhead (buffers, the agreement after each batch, the arrivals' gather), both on the slow side.
inline double nccl_setting_start_s(int nranks) { return 3.0 + 0.05 * nranks; }
inline constexpr double kNcclCaseOverheadS = 0.05;

inline constexpr int kNcclMaxChannels = 64;  // NCCL's MAXCHANNELS

// The setting's per-communicator knobs; a lone NCCL_MIN_CTAS / NCCL_MAX_CTAS gets its partner.
CommConfig comm_config_of(const Setting& setting);

std::chrono::milliseconds to_milliseconds(double seconds);

}  // namespace commtune
