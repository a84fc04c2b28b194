#include "backend/nccl/supervisor/step_agreement.hpp"

#include <algorithm>

#include "control/typed_messages.hpp"
#include "backend/nccl/worker_protocol.hpp"
#include "core/errors.hpp"

namespace commtune {
namespace {

using nlohmann::json;

json encode(const StepOutcome& outcome, const json& data) {
  return json{{"status", static_cast<int>(outcome.status)},
              {"reason", outcome.reason},
              {"fatal", outcome.fatal},
              {"rank", outcome.rank},
              {"data", data}};
}

StepOutcome decode_outcome(const json& j) {
  return StepOutcome{static_cast<StepStatus>(j.at("status").get<int>()), j.at("reason").get<std::string>(),
                     j.at("fatal").get<bool>(), j.at("rank").get<int>()};
}

json decide(const std::vector<json>& offers, const CombineData& combine) {
  std::vector<StepOutcome> outcomes;
  std::vector<json> datas;
  for (const json& j : offers) {
    outcomes.push_back(decode_outcome(j));
    datas.push_back(j.at("data"));
  }
  const StepOutcome verdict = worst_outcome(outcomes);
  if (!verdict.ok()) return encode(verdict, json());
  try {
    return encode(verdict, combine(datas));
  } catch (const std::exception& e) {  // decided on rank 0 alone: must still reach every rank
    return encode(
        StepOutcome{StepStatus::Failed, std::string("inconsistent worker replies: ") + e.what(), true},
        json());
  }
}

}  // namespace

StepOutcome worst_outcome(const std::vector<StepOutcome>& outcomes) {
  const auto failed = std::find_if(outcomes.begin(), outcomes.end(),
                                   [](const StepOutcome& o) { return o.status == StepStatus::Failed; });
  const auto timed_out = std::find_if(outcomes.begin(), outcomes.end(),
                                      [](const StepOutcome& o) { return o.status == StepStatus::TimedOut; });
  StepOutcome verdict = failed != outcomes.end()      ? *failed
                        : timed_out != outcomes.end() ? *timed_out
                                                      : StepOutcome{};
  verdict.fatal = std::any_of(outcomes.begin(), outcomes.end(), [](const StepOutcome& o) { return o.fatal; });
  return verdict;
}

AgreedStep agree_step(ControlPlane& control, const StepOutcome& local, const json& data,
                      const CombineData& combine) {
  const std::vector<json> offers = gather_values(control, encode(local, data));
  const json j = broadcast_value(control, control.rank() == 0 ? decide(offers, combine) : json());
  return AgreedStep{decode_outcome(j), j.at("data")};
}

namespace {

// A part's per-rank CPU entries: those of a combined part, or the worker's own with its rank; an
// empty list when the part has none (then the whole batch has none).
json rank_cpu_entries(const json& part, const TimedBatch& batch) {
  if (part.contains("rank_cpu")) return part.at("rank_cpu");
  if (!batch.cpu_seconds || !part.contains("rank")) return json::array();
  return json::array({json::array({part.at("rank").get<int>(), *batch.cpu_seconds, *batch.wall_seconds})});
}

}  // namespace

json combine_timed_batches(const std::vector<json>& parts) {
  if (parts.empty()) throw BackendError("no timed batch to combine");
  std::vector<double> longest = timed_batch_from_json(parts.front()).seconds;
  double loop_sum = 0;
  int ranks = 0;
  json cpu = json::array();
  bool every_cpu = true;
  for (const auto& part : parts) {
    const TimedBatch batch = timed_batch_from_json(part);
    if (batch.seconds.size() != longest.size())
      throw BackendError("workers timed different numbers of iterations");
    for (std::size_t i = 0; i < longest.size(); ++i) longest[i] = std::max(longest[i], batch.seconds[i]);
    const int weight = part.value("ranks", 1);  // a part already combined over several ranks
    loop_sum += batch.loop_seconds * weight;
    ranks += weight;
    const json entries = rank_cpu_entries(part, batch);
    every_cpu = every_cpu && static_cast<int>(entries.size()) == weight;
    for (const auto& e : entries) cpu.push_back(e);
  }
  json combined = to_json(TimedBatch{longest, loop_sum / ranks});
  combined["ranks"] = ranks;
  if (every_cpu) combined["rank_cpu"] = cpu;
  return combined;
}

json combine_rank_batches(const std::vector<json>& parts) {
  json combined = combine_timed_batches(parts);
  json seconds = json::array();
  for (const json& part : parts) {
    if (part.contains("rank_seconds")) {
      for (const json& entry : part.at("rank_seconds")) seconds.push_back(entry);
    } else {
      if (!part.contains("rank")) throw BackendError("a timed batch of a group names no rank");
      seconds.push_back(json::array({part.at("rank"), timed_batch_from_json(part).seconds}));
    }
  }
  combined["rank_seconds"] = seconds;
  return combined;
}

std::vector<std::vector<double>> rank_seconds_of(const json& combined, int nranks) {
  std::vector<std::vector<double>> out(static_cast<std::size_t>(nranks));
  std::vector<bool> seen(out.size(), false);
  for (const json& entry : combined.at("rank_seconds")) {
    const int r = entry.at(0).get<int>();
    if (r < 0 || r >= nranks || seen[static_cast<std::size_t>(r)])
      throw BackendError("timed batches of a group: rank " + std::to_string(r) + " unexpected");
    seen[static_cast<std::size_t>(r)] = true;
    out[static_cast<std::size_t>(r)] = entry.at(1).get<std::vector<double>>();
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end())
    throw BackendError("timed batches of a group: a rank's batch is missing");
  return out;
}

std::vector<RankCpu> rank_cpu_of(const json& combined, int nranks) {
  if (!combined.contains("rank_cpu")) return {};
  std::vector<RankCpu> out(static_cast<std::size_t>(nranks));
  std::vector<bool> seen(out.size(), false);
  for (const auto& e : combined.at("rank_cpu")) {
    const int r = e.at(0).get<int>();
    if (r < 0 || r >= nranks || seen[static_cast<std::size_t>(r)]) return {};
    seen[static_cast<std::size_t>(r)] = true;
    out[static_cast<std::size_t>(r)] = RankCpu{e.at(1).get<double>(), e.at(2).get<double>()};
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end()) return {};
  return out;
}

json combine_replayed_steps(const std::vector<json>& parts) {
  if (parts.empty()) throw BackendError("no replayed steps to combine");
  ReplayedSteps slowest = replayed_steps_from_json(parts.front());
  for (const json& part : parts) {
    const ReplayedSteps steps = replayed_steps_from_json(part);
    if (steps.step_seconds.size() != slowest.step_seconds.size() ||
        steps.call_seconds.size() != slowest.call_seconds.size())
      throw BackendError("workers replayed different numbers of steps or calls");
    for (std::size_t s = 0; s < steps.step_seconds.size(); ++s) {
      slowest.step_seconds[s] = std::max(slowest.step_seconds[s], steps.step_seconds[s]);
      for (std::size_t c = 0; c < steps.call_seconds.size(); ++c)
        slowest.call_seconds[c][s] = std::max(slowest.call_seconds[c][s], steps.call_seconds[c][s]);
    }
  }
  return to_json(slowest);
}

json sum_wrong(const std::vector<json>& parts) {
  std::int64_t wrong = 0;
  for (const auto& part : parts) wrong += part.at("wrong").get<std::int64_t>();
  return json{{"wrong", wrong}};
}

}  // namespace commtune
