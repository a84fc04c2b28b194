#include "backend/mpi/mpi_backend.hpp"

#include <algorithm>
#include <climits>
#include <numeric>
#include <optional>

#include "backend/mpi/heap_thresholds.hpp"
#include "backend/mpi/host_collective.hpp"
#include "backend/mpi/mpi_batch_timer.hpp"
#include "backend/mpi/mpi_control_variables.hpp"
#include "backend/mpi/mpi_groups.hpp"
#include "backend/mpi/mpi_step_replay.hpp"
#include "control/mpi_control_plane.hpp"
#include "backend/mpi/mpi_types.hpp"
#include "core/errors.hpp"
#include "measure/contention.hpp"
#include "measure/cpu_clock.hpp"
#include "measure/sampler.hpp"
#include "host/host_facts.hpp"

namespace commtune {
namespace {

class MpiSettingSession : public SettingSession {
 public:
  MpiSettingSession(MPI_Comm measured, MPI_Comm control, std::vector<GroupComm> groups, double contend,
                    std::shared_ptr<HostBuffers> buffers)
      : measured_(measured),
        control_(control),
        groups_(std::move(groups)),
        contend_(contend),
        buffers_(std::move(buffers)) {
    MPI_Comm_size(measured_, &nranks_);
    clock_cost_s_ = mpi_clock_cost_s(control_);
  }
  ~MpiSettingSession() override {
    MPI_Comm_free(&measured_);
    for (GroupComm& g : groups_) MPI_Comm_free(&g.comm);
  }

  CaseResult run_case(const Case& c, const Setting& setting, const SweepOptions& options) override {
    std::optional<CpuContender> load;  // --contend: the load runs while the case is measured
    if (options.contend > 0) load.emplace(options.contend);
    const GroupComm* group = group_of(c.group);
    HostCollective collective(c, group ? group->comm : measured_, *buffers_);
    std::int64_t wrong = -1;
    if (options.check) {
      wrong = collective.run_and_check();
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, control_);
    }
    if (!group) {
      MpiBatchTimer timer(collective, control_, traits_of(c.collective).rooted,
                          options.stopping.each_call ? 0.0 : clock_cost_s_);
      return measured_case(c, setting.name, nranks_, sample_until_stable(timer, options.stopping), wrong);
    }
    // Every group starts each batch (each paced sample) from one barrier of the whole job.
    GroupTally tally(group->layout);
    MpiBatchTimer timer(collective, control_, traits_of(c.collective).rooted, clock_cost_s_, &tally);
    const SampleRun run = sample_until_stable(timer, options.stopping);
    int rank = 0;
    MPI_Comm_rank(control_, &rank);
    if (rank != 0) return measured_case(c, setting.name, nranks_, run, wrong);
    return grouped_case(c, setting.name, group->layout, tally.seconds(), run, wrong);
  }

  StepTimes run_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup) override {
    std::optional<CpuContender> load;  // --contend: the load runs while the steps are replayed
    if (contend_ > 0) load.emplace(contend_);
    const CommOf comm_of = [this](const GroupSpec& spec) {
      const GroupComm* group = group_of(spec);
      return group ? group->comm : measured_;
    };
    return replay_host_steps(calls, steps, warmup, comm_of, control_);
  }

 private:
  const GroupComm* group_of(const GroupSpec& spec) const {
    if (spec.is_world()) return nullptr;
    for (const GroupComm& g : groups_)
      if (g.layout.spec == spec) return &g;
    throw BackendError("no communicator was made for group spec '" + spec.name() + "'");
  }

  MPI_Comm measured_;
  MPI_Comm control_;
  std::vector<GroupComm> groups_;
  double contend_ = 0;  // --contend of the sweep or replay that opened the setting (its replays' load)
  std::shared_ptr<HostBuffers> buffers_;  // the backend's, shared by its sessions
  int nranks_ = 1;
  double clock_cost_s_ = 0;  // mpi_clock_cost_s: short calls are timed in blocks
};

ControlVariable require_variable(const std::string& name) {
  std::optional<ControlVariable> variable = find_control_variable(name);
  if (!variable)
    throw InputError("Open MPI has no control variable '" + name +
                     "' (see `ompi_info --param coll tuned --level 9` for valid names)");
  return *variable;
}

// Writes the setting's variables, remembering the previous values to restore after the dup.
std::vector<std::pair<ControlVariable, int>> apply_knobs(const Setting& setting) {
  std::vector<std::pair<ControlVariable, int>> previous;
  try {
    for (const auto& [name, text] : setting.knobs) {
      const ControlVariable variable = require_variable(name);
      const int old_value = read_control_variable(variable);
      write_control_variable(variable, control_value(variable, text));
      previous.emplace_back(variable, old_value);
    }
  } catch (const InputError& e) {
    throw SettingError(e.what());
  }
  return previous;
}

void restore_knobs(const std::vector<std::pair<ControlVariable, int>>& previous) {
  for (auto it = previous.rbegin(); it != previous.rend(); ++it)
    write_control_variable(it->first, it->second);
}

std::string library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, static_cast<std::size_t>(length));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

}  // namespace

MpiBackend::MpiBackend(const MpiEnvironment& environment, MPI_Comm control)
    : environment_(environment),
      control_(control),
      nodes_(node_of_each_rank(control)),
      heap_(hold_heap_thresholds()) {}

// Measured on the 2-core development VM, 4 ranks (docs/racing.md): 240 cases with one iteration,
// no warm-up and no data check take 0.4 s besides the start-up, so a case's own cost (buffers, the
// agreement after each batch, the arrivals' gather) is a few ms; 0.01 s is on the slow side. A
// setting sets control variables and duplicates a communicator. The iteration: host memory at
// 1 GB/s. A broadcast sample is a group of calls after a barrier (8, fewer where a call takes
// milliseconds), and its time counts as the calls': the barrier adds to it, most at small sizes (2 is on the
// slow side there). Racing keeps up to 64 settings open (a duplicated communicator each); round 0's
// warm-up ends after 3 calls where they last the round's least time (MpiBatchTimer::warm_up).
CostModel MpiBackend::cost_model() const {
  return CostModel{.setting_start_s = 0.05,
                   .case_overhead_s = 0.01,
                   .latency_s = 2e-5,
                   .bytes_per_s = 1e9,
                   .rooted_factor = 2,
                   .sessions_kept = 64,
                   .warmup_cut = true};
}

PlanLimits MpiBackend::limits() const {
  int ranks_per_host = 1;  // the most ranks on one node
  for (int node : nodes_)
    ranks_per_host =
        std::max(ranks_per_host, static_cast<int>(std::count(nodes_.begin(), nodes_.end(), node)));
  unsigned long long memory = available_memory_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &memory, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, control_);
  // MPI counts are int: larger calls would need derived datatypes, which would time something else.
  return PlanLimits{.nranks = environment_.size(),
                    .ranks_per_host = ranks_per_host,
                    .memory_bytes_per_host = memory,
                    .max_count = static_cast<std::uint64_t>(INT_MAX),
                    .node_of_rank = nodes_};
}

nlohmann::json MpiBackend::provenance() const {
  nlohmann::json facts{{"mpi_library", library_version()}};
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  facts["mpi_standard"] = std::to_string(major) + "." + std::to_string(minor);
  facts["heap"] = heap_;
  if (!environment_.dynamic_rules_warning().empty()) facts["warning"] = environment_.dynamic_rules_warning();
  return facts;
}

void MpiBackend::validate(const Setting& setting, const SweepOptions& options) const {
  to_mpi(options.dtype);
  for (const auto& [name, text] : setting.knobs) {
    const ControlVariable variable = require_variable(name);
    control_value(variable, text);
    if (!variable.writable)
      throw InputError("Open MPI variable '" + name + "' cannot be changed at run time");
  }
}

std::unique_ptr<SettingSession> MpiBackend::open(const Setting& setting, const SweepOptions& options) {
  const auto previous = apply_knobs(setting);
  MPI_Comm measured = MPI_COMM_NULL;
  const int code = MPI_Comm_dup(MPI_COMM_WORLD, &measured);
  std::vector<GroupComm> groups;
  try {
    if (code == MPI_SUCCESS) groups = split_groups(options, nodes_);
  } catch (const SettingError&) {
    restore_knobs(previous);
    MPI_Comm_free(&measured);
    throw;
  }
  restore_knobs(previous);
  if (code != MPI_SUCCESS) throw SettingError("MPI_Comm_dup failed: " + mpi_error_text(code));
  MPI_Comm_set_errhandler(measured, MPI_ERRORS_RETURN);
  return std::make_unique<MpiSettingSession>(measured, control_, std::move(groups), options.contend,
                                             buffers_);
}

}  // namespace commtune
