#include "backend/nccl/supervisor/nccl_pairwise.hpp"

#include <algorithm>
#include <memory>

#include "backend/nccl/supervisor/step_agreement.hpp"
#include "backend/nccl/supervisor/worker_group.hpp"
#include "core/errors.hpp"
#include "pairwise/round_robin.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// Rounds' data: {"entries": [{"group": g, "from": i, "to": j, "gbps": [...], "latency_us": [...]}, ...]},
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

int group_size(const NcclPairwisePlan& plan, std::size_t g) {
  return static_cast<int>(plan.groups.at(g).size());
}

// Every group's schedule (the plan's rounds where it has them for the group); a group of fewer than
// 2 members has none.
std::vector<std::vector<Round>> schedules(const NcclPairwisePlan& plan) {
  std::vector<std::vector<Round>> out;
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    const bool chosen = g < plan.rounds.size() && plan.rounds[g].has_value();
    out.push_back(group_size(plan, g) < 2 ? std::vector<Round>{}
                  : chosen                ? *plan.rounds[g]
                                          : round_robin_rounds(group_size(plan, g)));
  }
  return out;
}

// This supervisor's part of a round: each worker's samples with whom it measured them.
json round_entries(const std::vector<WorkerReply>& replies, const Round& round, const NcclPairwisePlan& plan,
                   StepOutcome& outcome) {
  if (!outcome.ok()) return nullptr;
  json entries = json::array();
  try {
    for (std::size_t w = 0; w < replies.size(); ++w) {
      const int peer = peer_in(round, plan.my_members[w]);
      const PairSamples samples = pair_samples_from_json(replies[w].body);
      if (peer < 0) continue;
      if (samples.gbps.empty()) throw ProtocolError("no samples for its pair");
      json entry = to_json(samples);
      entry["group"] = plan.my_group;
      entry["from"] = plan.my_members[w];
      entry["to"] = peer;
      entries.push_back(entry);
    }
  } catch (const std::exception& e) {
    outcome = StepOutcome{StepStatus::Failed,
                          std::string("unexpected worker reply to a pairwise round: ") + e.what(), true};
    return nullptr;
  }
  return json{{"entries", entries}};
}

std::unique_ptr<WorkerGroup> spawn_workers(const WorkerCommand& command, const NcclRunOptions& run,
                                           const NcclPairwisePlan& plan, StepOutcome& outcome) {
  const int members = group_size(plan, static_cast<std::size_t>(plan.my_group));
  const Setting plain{kDefaultSettingName, "nothing forced", {}, {}};
  std::vector<WorkerSpawn> spawns;
  for (std::size_t i = 0; i < plan.my_members.size(); ++i) {
    const int member = plan.my_members[i];
    spawns.push_back(
        WorkerSpawn{command.executable, worker_arguments(member, members, plan.my_devices.at(i)),
                    worker_environment(command.base_environment, plain, member, run.emulate_nodes)});
  }
  try {
    return std::make_unique<WorkerGroup>(spawns, plan.my_ranks.empty() ? plan.my_members : plan.my_ranks);
  } catch (const Error& e) {
    outcome = StepOutcome{StepStatus::Failed, std::string("pairwise map: ") + e.what(), true};
    return nullptr;
  }
}

// {"ids": {"<group>": id, ...}}: every group's unique id, from the supervisors that made them;
// throws when a group of 2 or more members has none.
CombineData collect_unique_ids(const NcclPairwisePlan& plan) {
  return [&plan](const std::vector<json>& parts) {
    json ids = json::object();
    for (const auto& part : parts)
      if (part.is_object() && part.contains("unique_id"))
        ids[std::to_string(part.at("group").get<int>())] = part.at("unique_id");
    for (std::size_t g = 0; g < plan.groups.size(); ++g)
      if (group_size(plan, g) >= 2 && !ids.contains(std::to_string(g)))
        throw BackendError("member 0's worker of map " + std::to_string(g) + " returned no unique id");
    return json{{"ids", ids}};
  };
}

// One communicator per group: each group's member 0 makes its unique id, every worker inits.
AgreedStep init_members(ControlPlane& control, WorkerGroup* workers, const NcclRunOptions& run,
                        const NcclPairwisePlan& plan, StepOutcome outcome) {
  const auto timeout = to_milliseconds(run.init_timeout_s);
  std::vector<WorkerReply> replies;
  const bool makes_id = !plan.my_members.empty() && plan.my_members.front() == 0;
  if (outcome.ok() && makes_id) {
    std::vector<std::string> requests(workers->size());
    requests[0] = request_line("unique_id");
    outcome = workers->exchange(requests, timeout, "pairwise map: unique id creation", replies);
  }
  json id_part;  // a reply without an id offers none: the combination names the group that has none
  if (outcome.ok() && makes_id && replies[0].body.contains("unique_id"))
    id_part = json{{"unique_id", replies[0].body["unique_id"]}, {"group", plan.my_group}};
  AgreedStep agreed = agree_step(control, outcome, id_part, collect_unique_ids(plan));
  if (!agreed.outcome.ok()) return agreed;
  outcome = StepOutcome{};
  if (workers != nullptr && workers->size() > 0) {
    const json id = agreed.data.at("ids").at(std::to_string(plan.my_group));
    const std::string init = request_line("init", {{"unique_id", id}, {"config", json::object()}});
    outcome = workers->exchange({init}, timeout, "pairwise map: communicator init", replies);
  }
  return agree_step(control, outcome, nullptr, no_data);
}

std::vector<PairMatrix> matrices_from(const NcclPairwisePlan& plan, const std::vector<json>& entries) {
  std::vector<PairMatrix> all;
  for (const auto& names : plan.groups) all.push_back(empty_matrix(names, plan.unit, plan.shape.bytes));
  for (const auto& e : entries) {
    const int g = e.at("group").get<int>(), from = e.at("from").get<int>(), to = e.at("to").get<int>();
    if (g < 0 || g >= static_cast<int>(all.size())) throw BackendError("pairwise entry of an unknown map");
    PairMatrix& m = all[static_cast<std::size_t>(g)];
    if (from < 0 || to < 0 || from >= m.size() || to >= m.size() || from == to)
      throw BackendError("pairwise entry out of range");
    const PairSamples samples = pair_samples_from_json(e);
    m.entries[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)] =
        PairEntry{samples.gbps, samples.latency_us};
  }
  return all;
}

// The rounds of every group at once: step r runs round r of each group that has one.
AgreedStep run_rounds(ControlPlane& control, WorkerGroup* workers, const NcclRunOptions& run,
                      const NcclPairwisePlan& plan, AgreedStep agreed, std::vector<json>& entries) {
  const std::vector<std::vector<Round>> all = schedules(plan);
  std::size_t steps = 0;
  for (const auto& rounds : all) steps = std::max(steps, rounds.size());
  const std::vector<Round>& mine = all.at(static_cast<std::size_t>(plan.my_group));
  for (std::size_t r = 0; r < steps && agreed.outcome.ok(); ++r) {
    const std::string step = "pairwise map round " + std::to_string(r + 1) + " of " + std::to_string(steps);
    const Round round = r < mine.size() ? mine[r] : Round{};
    std::vector<WorkerReply> replies;
    StepOutcome outcome;
    if (workers)
      outcome = workers->exchange(round_requests(round, plan.my_members, plan.shape),
                                  to_milliseconds(run.case_timeout_s), step, replies);
    const json part =
        workers ? round_entries(replies, round, plan, outcome) : json{{"entries", json::array()}};
    agreed = agree_step(control, outcome, part, concatenate);
    if (agreed.outcome.ok() && control.rank() == 0)
      for (const auto& e : agreed.data.at("entries")) entries.push_back(e);
  }
  return agreed;
}

}  // namespace

NcclPairwisePlan single_map_plan(std::vector<std::string> names, std::string unit,
                                 std::vector<int> my_members, std::vector<int> my_devices,
                                 const PairwiseRequest& shape) {
  NcclPairwisePlan plan;
  plan.groups = {std::move(names)};
  plan.unit = std::move(unit);
  plan.my_members = std::move(my_members);
  plan.my_devices = std::move(my_devices);
  plan.shape = shape;
  return plan;
}

std::vector<std::string> round_requests(const std::vector<std::pair<int, int>>& round,
                                        const std::vector<int>& my_members, const PairwiseRequest& shape) {
  std::vector<std::string> requests;
  for (const int member : my_members) {
    PairwiseRequest request = shape;
    request.peer = peer_in(round, member);
    requests.push_back(request_line("pairwise", to_json(request)));
  }
  return requests;
}

NcclPairwiseMap measure_nccl_pairwise(ControlPlane& control, const WorkerCommand& command,
                                      const NcclRunOptions& run, const NcclPairwisePlan& plan) {
  if (plan.my_group < 0 || static_cast<std::size_t>(plan.my_group) >= plan.groups.size())
    throw Error("pairwise map: this supervisor's group is not one of the plan's");
  StepOutcome outcome;
  std::unique_ptr<WorkerGroup> workers =
      plan.my_members.empty() ? nullptr : spawn_workers(command, run, plan, outcome);
  std::vector<json> entries;
  const AgreedStep agreed = run_rounds(control, workers.get(), run, plan,
                                       init_members(control, workers.get(), run, plan, outcome), entries);
  NcclPairwiseMap map;
  if (!agreed.outcome.ok()) {
    if (workers) workers->kill_all();
    map.failure = agreed.outcome.reason;
    return map;
  }
  if (workers)
    workers->finish(std::min(to_milliseconds(run.case_timeout_s), std::chrono::milliseconds(10000)));
  if (control.rank() == 0) map.matrices = matrices_from(plan, entries);
  return map;
}

}  // namespace commtune
