#include "replay/replay_as_results.hpp"

#include <algorithm>
#include <tuple>

#include "core/collective_traits.hpp"
#include "measure/statistics.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

using CallKey = std::tuple<int, std::uint64_t, int, int, std::string>;

CallKey key_of(const WorkloadCollective& c) {
  return {static_cast<int>(c.collective), c.bytes, static_cast<int>(c.datatype), static_cast<int>(c.op),
          c.group.name()};
}

// One case's seconds a step: the calls of that case added up, step by step.
struct Merged {
  std::size_t first_call = 0;
  std::vector<double> seconds;
};

std::vector<Merged> merged_calls(const ReplayRecord& r, const SettingReplay& s) {
  std::vector<Merged> out;
  std::vector<CallKey> keys;
  for (std::size_t i = 0; i < s.call_seconds.size() && i < r.workload.collectives.size(); ++i) {
    const CallKey key = key_of(r.workload.collectives[i]);
    const auto at = std::find(keys.begin(), keys.end(), key);
    if (at == keys.end()) {
      keys.push_back(key);
      out.push_back({i, s.call_seconds[i]});
      continue;
    }
    Merged& m = out[static_cast<std::size_t>(at - keys.begin())];
    for (std::size_t k = 0; k < m.seconds.size() && k < s.call_seconds[i].size(); ++k)
      m.seconds[k] += s.call_seconds[i][k];
  }
  return out;
}

// Each round's median, the round's `steps` steps being consecutive.
std::vector<double> round_medians_us(const std::vector<double>& us, std::size_t steps) {
  std::vector<double> out;
  for (std::size_t start = 0; steps > 0 && start + steps <= us.size(); start += steps)
    out.push_back(summarize(std::vector<double>(us.begin() + static_cast<std::ptrdiff_t>(start),
                                                us.begin() + static_cast<std::ptrdiff_t>(start + steps)))
                      .median);
  return out.size() > 1 ? out : std::vector<double>{};
}

CaseResult case_of(const ReplayRecord& r, const SettingReplay& s, const Merged& m, std::size_t index) {
  const WorkloadCollective& w = r.workload.collectives[m.first_call];
  CaseResult c;
  c.spec.index = index;
  c.spec.collective = w.collective;
  c.spec.bytes = w.bytes;
  c.spec.count = buffer_counts(w.collective, w.bytes, w.datatype, w.group_ranks).count;
  c.spec.dtype = w.datatype;
  c.spec.op = w.op;
  c.spec.root = traits_of(w.collective).rooted ? 0 : -1;
  c.spec.group = w.group;
  c.setting = s.setting.name;
  c.nranks = w.group_ranks;
  std::vector<double> us;
  for (double seconds : m.seconds) us.push_back(seconds * 1e6);
  c.run_medians_us = round_medians_us(us, r.options.steps);
  c.samples_us = us;
  c.time_us = summarize(std::move(us));
  return c;
}

}  // namespace

ResultsDocument replay_as_results(const ReplayRecord& r) {
  ResultsDocument doc{.schema_version = kResultsSchemaVersion,
                      .backend = r.backend,
                      .provenance = r.provenance,
                      .sweep = nlohmann::json{{"replay", r.workload_file}},
                      .decision = r.options.rule,
                      .settings = {},
                      .cases = {},
                      .complete = r.complete};
  // What was replayed, where compare's provenance differences show it (a load, other steps).
  if (!doc.provenance.is_object()) doc.provenance = nlohmann::json::object();
  doc.provenance["replay"] = {{"workload_file", r.workload_file},
                              {"contend", r.contend},
                              {"rounds", r.options.rounds},
                              {"steps", r.options.steps}};
  for (const SettingReplay& s : r.settings) {
    doc.settings.push_back(s.setting);
    if (s.step_seconds.empty()) continue;
    for (const Merged& m : merged_calls(r, s)) doc.cases.push_back(case_of(r, s, m, doc.cases.size()));
  }
  return doc;
}

}  // namespace commtune
