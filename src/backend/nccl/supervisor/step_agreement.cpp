#include "backend/nccl/supervisor/step_agreement.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace commtune {
namespace {

using nlohmann::json;

json encode(const StepOutcome& outcome, const json& data) {
  return json{{"status", static_cast<int>(outcome.status)}, {"reason", outcome.reason}, {"fatal", outcome.fatal}, {"data", data}};
}

StepOutcome decode_outcome(const json& j) {
  return StepOutcome{static_cast<StepStatus>(j.at("status").get<int>()), j.at("reason").get<std::string>(),
                     j.at("fatal").get<bool>()};
}

json decide(const std::vector<std::string>& offers, const CombineData& combine) {
  std::vector<StepOutcome> outcomes;
  std::vector<json> datas;
  for (const auto& offer : offers) {
    const json j = json::parse(offer);
    outcomes.push_back(decode_outcome(j));
    datas.push_back(j.at("data"));
  }
  const StepOutcome verdict = worst_outcome(outcomes);
  if (!verdict.ok()) return encode(verdict, json());
  try {
    return encode(verdict, combine(datas));
  } catch (const std::exception& e) {  // decided on rank 0 alone: must still reach every rank
    return encode(StepOutcome{StepStatus::Failed, std::string("inconsistent worker replies: ") + e.what(), true}, json());
  }
}

}  // namespace

StepOutcome worst_outcome(const std::vector<StepOutcome>& outcomes) {
  const auto failed = std::find_if(outcomes.begin(), outcomes.end(), [](const StepOutcome& o) { return o.status == StepStatus::Failed; });
  const auto timed_out = std::find_if(outcomes.begin(), outcomes.end(), [](const StepOutcome& o) { return o.status == StepStatus::TimedOut; });
  StepOutcome verdict = failed != outcomes.end() ? *failed : timed_out != outcomes.end() ? *timed_out : StepOutcome{};
  verdict.fatal = std::any_of(outcomes.begin(), outcomes.end(), [](const StepOutcome& o) { return o.fatal; });
  return verdict;
}

AgreedStep agree_step(ControlPlane& control, const StepOutcome& local, const json& data, const CombineData& combine) {
  const std::vector<std::string> offers = control.gather_to_root(encode(local, data).dump());
  const std::string decided = control.broadcast_from_root(control.rank() == 0 ? decide(offers, combine).dump() : "");
  const json j = json::parse(decided);
  return AgreedStep{decode_outcome(j), j.at("data")};
}

json max_seconds(const std::vector<json>& parts) {
  std::vector<double> longest;
  for (const auto& part : parts) {
    const auto seconds = part.at("seconds").get<std::vector<double>>();
    if (longest.empty()) longest.assign(seconds.size(), 0.0);
    if (seconds.size() != longest.size()) throw BackendError("workers timed different numbers of iterations");
    for (std::size_t i = 0; i < seconds.size(); ++i) longest[i] = std::max(longest[i], seconds[i]);
  }
  return json{{"seconds", longest}};
}

json sum_wrong(const std::vector<json>& parts) {
  std::int64_t wrong = 0;
  for (const auto& part : parts) wrong += part.at("wrong").get<std::int64_t>();
  return json{{"wrong", wrong}};
}

}  // namespace commtune
