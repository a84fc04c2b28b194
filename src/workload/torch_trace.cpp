#include "workload/torch_trace.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "workload/torch_trace_event.hpp"
#include "workload/workload_steps.hpp"

namespace commtune {
namespace {

using nlohmann::json;

struct Span {
  double begin = 0;
  double end = 0;
};

struct TraceEvents {
  std::vector<TorchCommEvent> comms;
  std::vector<Span> steps;
};

bool is_comm_event(const json& e, bool kernels) {
  if (!e.is_object() || !e.contains("args") || !e["args"].is_object()) return false;
  const auto name = e.find("name");
  if (!kernels) return name != e.end() && *name == "record_param_comms";
  const auto cat = e.find("cat");
  return cat != e.end() && *cat == "kernel" && e["args"].contains("Collective name");
}

TraceEvents events_of(const json& trace, const std::string& origin) {
  const json& list = list_at(required_field(trace, "traceEvents", origin), origin + ": traceEvents");
  TraceEvents out;
  for (const bool kernels : {false, true}) {
    for (std::size_t i = 0; i < list.size(); ++i)
      if (is_comm_event(list[i], kernels))
        out.comms.push_back(read_comm_event(list[i], origin + ": traceEvents[" + std::to_string(i) + "]"));
    if (!out.comms.empty()) break;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string() ||
        e["name"].get<std::string>().rfind("ProfilerStep#", 0) != 0)
      continue;
    const std::string where = origin + ": traceEvents[" + std::to_string(i) + "]";
    const double ts = number_in(required_field(e, "ts", where), where + ".ts", -1e18, 1e18);
    out.steps.push_back({ts, ts + number_in(required_field(e, "dur", where), where + ".dur", 0, 1e18)});
  }
  if (out.comms.empty())
    throw InputError(origin +
                     ": no communication events (\"record_param_comms\" with a \"Collective name\"): "
                     "profile the job with torch.profiler and a process group");
  std::stable_sort(out.comms.begin(), out.comms.end(),
                   [](const TorchCommEvent& a, const TorchCommEvent& b) { return a.ts < b.ts; });
  return out;
}

int world_of(const json& trace, const TraceEvents& events, const std::string& origin) {
  int world = 0;
  for (const TorchCommEvent& e : events.comms) world = std::max(world, e.group_size);
  const auto info = trace.find("distributedInfo");
  if (info != trace.end() && info->is_object() && info->contains("world_size"))
    world = std::max(world, static_cast<int>(integer_in(
                                (*info)["world_size"], origin + ": distributedInfo.world_size", 1, 1 << 20)));
  return world;
}

// The spec whose group holding `ranks[0]` is `ranks`, on a job of `world` ranks without hosts.
GroupSpec spec_of_group(const TorchCommEvent& e, int world, const std::string& origin) {
  const auto n = static_cast<std::uint32_t>(e.group_size);
  if (e.group_size == world) return GroupSpec{};
  if (!e.ranks) return GroupSpec{.kind = GroupKind::Split, .op = SplitOp::Div, .value = n};
  std::vector<int> sorted = *e.ranks;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<int> one_node(static_cast<std::size_t>(world), 0);
  std::vector<GroupSpec> candidates = {{.kind = GroupKind::Split, .op = SplitOp::Div, .value = n}};
  if (world % e.group_size == 0)
    candidates.push_back(
        {.kind = GroupKind::Split, .op = SplitOp::Mod, .value = static_cast<std::uint32_t>(world) / n});
  std::uint32_t span = 1;
  while (span < static_cast<std::uint32_t>(world)) span <<= 1;
  for (const SplitOp op : {SplitOp::And, SplitOp::Or})
    for (std::uint32_t v = 0; world <= 4096 && v < span; ++v)
      candidates.push_back({.kind = GroupKind::Split, .op = op, .value = v});
  for (const GroupSpec& spec : candidates) {
    if (sorted.back() >= world) break;
    const std::vector<std::uint32_t> colors = group_colors(spec, one_node);
    std::vector<int> members;
    for (int r = 0; r < world; ++r)
      if (colors[static_cast<std::size_t>(r)] == colors[static_cast<std::size_t>(sorted.front())])
        members.push_back(r);
    if (members == sorted) return spec;
  }
  throw InputError(origin + ": process group " + excerpt(e.group) + " (" + excerpt(json(sorted).dump()) +
                   " of " + std::to_string(world) + " ranks) is a shape commtune cannot express");
}

struct TraceGroup {
  GroupSpec spec;
  int size = 0;
  CallSequence calls;
};

}  // namespace

Workload torch_trace_from_json(const json& trace, const std::string& origin,
                               const TorchTraceOptions& options) {
  if (!trace.is_object()) bad_value(origin, "a PyTorch profiler trace (an object with traceEvents)", trace);
  const TraceEvents events = events_of(trace, origin);
  const int world = world_of(trace, events, origin);
  std::vector<TraceGroup> groups;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::uint64_t> not_measured;
  CallKeys keys;
  const auto in_a_step = [&](double ts) {
    return std::any_of(events.steps.begin(), events.steps.end(),
                       [&](const Span& s) { return ts >= s.begin && ts <= s.end; });
  };
  const bool by_spans = options.steps == 0 && !events.steps.empty();
  for (const TorchCommEvent& e : events.comms) {
    if (by_spans && !in_a_step(e.ts)) continue;
    if (!e.call) {
      ++not_measured[e.name];
      continue;
    }
    const auto [it, added] = index.emplace(e.group, groups.size());
    if (added)
      groups.push_back(
          TraceGroup{.spec = spec_of_group(e, world, origin), .size = e.group_size, .calls = {}});
    groups[it->second].calls.add(keys.intern(*e.call, origin));
  }
  if (groups.empty())
    throw InputError(origin + ": no all-reduce, all-gather, broadcast or reduce-scatter event");
  std::vector<const CallSequence*> sequences;
  for (const TraceGroup& g : groups) sequences.push_back(&g.calls);
  const std::uint64_t steps = options.steps > 0 ? options.steps : by_spans ? events.steps.size() : 0;
  const StepRuns step = one_step_of(sequences, steps);
  Workload workload{
      .world_ranks = world,
      .collectives = {},
      .source = WorkloadSource{
          .kind = "torch-trace", .files = {origin}, .parameters = nullptr, .skipped_lines = 0, .notes = {}}};
  auto& notes = workload.source.notes;
  for (std::size_t i = 0; i < groups.size(); ++i)
    append_runs(workload.collectives, step.per_sequence[i], keys, groups[i].spec, groups[i].size, notes);
  notes.push_back(
      "one rank's trace: each process group's shape inferred from its ranks without hosts "
      "(intra-node and inter-node read as DIV and MOD splits); reductions taken as sums");
  if (by_spans)
    notes.push_back(std::to_string(steps) + " ProfilerStep spans: calls divided by them");
  else
    notes.insert(notes.end(), step.notes.begin(), step.notes.end());
  std::string left_out;
  for (const auto& [name, calls] : not_measured)
    left_out += (left_out.empty() ? "" : ", ") + excerpt(name, 40) + " x" + std::to_string(calls);
  if (!left_out.empty()) notes.push_back("calls commtune does not measure, left out: " + left_out);
  return workload;
}

Workload read_torch_trace(const std::string& path, const TorchTraceOptions& options) {
  return torch_trace_from_json(read_json_file(path, "PyTorch trace"), path, options);
}

}  // namespace commtune
