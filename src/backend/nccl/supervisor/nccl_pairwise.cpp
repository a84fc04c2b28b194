#include "backend/nccl/supervisor/nccl_pairwise.hpp"

#include <memory>

#include "backend/nccl/supervisor/step_agreement.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"
#include "core/errors.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// Rounds' data: {"entries": [{"from": i, "to": j, "gbps": [...], "latency_us": [...]}, ...]},
// concatenated over workers and supervisors.
json concatenate(const std::vector<json>& parts) {
  json all = json::array();
  for (const auto& part : parts)
    if (part.is_object())
      for (const auto& entry : part.at("entries")) all.push_back(entry);
  return json{{"entries", all}};
}

int peer_in(const std::vector<std::pair<int, int>>& round, int member) {
  for (const auto& [a, b] : round) {
    if (a == member) return b;
    if (b == member) return a;
  }
  return -1;
}

// This supervisor's part of a round: each worker's samples with whom it measured them.
json round_entries(const std::vector<WorkerReply>& replies, const std::vector<std::pair<int, int>>& round,
                   const std::vector<int>& my_members, StepOutcome& outcome) {
  if (!outcome.ok()) return nullptr;
  json entries = json::array();
  try {
    for (std::size_t w = 0; w < replies.size(); ++w) {
      const int peer = peer_in(round, my_members[w]);
      const PairSamples samples = pair_samples_from_json(replies[w].body);
      if (peer < 0) continue;
      if (samples.gbps.empty()) throw ProtocolError("no samples for its pair");
      json entry = to_json(samples);
      entry["from"] = my_members[w];
      entry["to"] = peer;
      entries.push_back(entry);
    }
  } catch (const std::exception& e) {
    outcome = StepOutcome{StepStatus::Failed, std::string("unexpected worker reply to a pairwise round: ") + e.what(), true};
    return nullptr;
  }
  return json{{"entries", entries}};
}

std::unique_ptr<WorkerGroup> spawn_workers(const WorkerCommand& command, const NcclRunOptions& run, const NcclPairwisePlan& plan,
                                           StepOutcome& outcome) {
  const int members = static_cast<int>(plan.names.size());
  const Setting plain{kDefaultSettingName, "nothing forced", {}, {}};
  std::vector<WorkerSpawn> spawns;
  for (std::size_t i = 0; i < plan.my_members.size(); ++i) {
    const int member = plan.my_members[i];
    spawns.push_back(WorkerSpawn{command.executable, worker_arguments(member, members, plan.my_devices.at(i)),
                                 worker_environment(command.base_environment, plain, member, run.emulate_nodes)});
  }
  try {
    return std::make_unique<WorkerGroup>(spawns, plan.my_members);
  } catch (const Error& e) {
    outcome = StepOutcome{StepStatus::Failed, std::string("pairwise map: ") + e.what(), true};
    return nullptr;
  }
}

// The communicator over the members: member 0's worker makes the unique id, every worker inits.
AgreedStep init_members(ControlPlane& control, WorkerGroup* workers, const NcclRunOptions& run, const NcclPairwisePlan& plan,
                        StepOutcome outcome) {
  const auto timeout = to_milliseconds(run.init_timeout_s);
  std::vector<WorkerReply> replies;
  const bool makes_id = control.rank() == 0 && !plan.my_members.empty() && plan.my_members.front() == 0;
  if (outcome.ok() && makes_id) {
    std::vector<std::string> requests(workers->size());
    requests[0] = request_line("unique_id");
    outcome = workers->exchange(requests, timeout, "pairwise map: unique id creation", replies);
  }
  const json id_part = outcome.ok() && makes_id ? replies[0].body : json();
  AgreedStep agreed = agree_step(control, outcome, id_part, [](const std::vector<json>& parts) {
    for (const auto& part : parts)
      if (part.is_object() && part.contains("unique_id")) return part;
    throw BackendError("member 0's worker returned no unique id");
  });
  if (!agreed.outcome.ok()) return agreed;
  const std::string init = request_line("init", {{"unique_id", agreed.data.at("unique_id")}, {"config", json::object()}});
  if (workers != nullptr && workers->size() > 0)
    outcome = workers->exchange({init}, timeout, "pairwise map: communicator init", replies);
  return agree_step(control, outcome, nullptr, no_data);
}

PairMatrix matrix_from(const NcclPairwisePlan& plan, const std::vector<json>& entries) {
  PairMatrix m = empty_matrix(plan.names, plan.unit, plan.shape.bytes);
  for (const auto& e : entries) {
    const int from = e.at("from").get<int>(), to = e.at("to").get<int>();
    if (from < 0 || to < 0 || from >= m.size() || to >= m.size() || from == to) throw BackendError("pairwise entry out of range");
    const PairSamples samples = pair_samples_from_json(e);
    m.entries[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)] = PairEntry{samples.gbps, samples.latency_us};
  }
  return m;
}

}  // namespace

std::vector<std::string> round_requests(const std::vector<std::pair<int, int>>& round, const std::vector<int>& my_members,
                                        const PairwiseRequest& shape) {
  std::vector<std::string> requests;
  for (const int member : my_members) {
    PairwiseRequest request = shape;
    request.peer = peer_in(round, member);
    requests.push_back(request_line("pairwise", to_json(request)));
  }
  return requests;
}

NcclPairwiseMap measure_nccl_pairwise(ControlPlane& control, const WorkerCommand& command, const NcclRunOptions& run,
                                      const NcclPairwisePlan& plan) {
  StepOutcome outcome;
  std::unique_ptr<WorkerGroup> workers = plan.my_members.empty() ? nullptr : spawn_workers(command, run, plan, outcome);
  AgreedStep agreed = init_members(control, workers.get(), run, plan, outcome);
  std::vector<json> entries;
  const std::vector<Round> rounds = round_robin_rounds(static_cast<int>(plan.names.size()));
  for (std::size_t r = 0; r < rounds.size() && agreed.outcome.ok(); ++r) {
    const std::string step = "pairwise map round " + std::to_string(r + 1) + " of " + std::to_string(rounds.size());
    std::vector<WorkerReply> replies;
    outcome = StepOutcome{};
    if (workers) outcome = workers->exchange(round_requests(rounds[r], plan.my_members, plan.shape), to_milliseconds(run.case_timeout_s), step, replies);
    const json mine = workers ? round_entries(replies, rounds[r], plan.my_members, outcome) : json{{"entries", json::array()}};
    agreed = agree_step(control, outcome, mine, concatenate);
    if (agreed.outcome.ok() && control.rank() == 0)
      for (const auto& e : agreed.data.at("entries")) entries.push_back(e);
  }
  NcclPairwiseMap map;
  if (!agreed.outcome.ok()) {
    if (workers) workers->kill_all();
    map.failure = agreed.outcome.reason;
    return map;
  }
  if (workers) workers->finish(std::min(to_milliseconds(run.case_timeout_s), std::chrono::milliseconds(10000)));
  if (control.rank() == 0) map.matrix = matrix_from(plan, entries);
  return map;
}

}  // namespace commtune
