#include "plan/plan.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "measure/data_pattern.hpp"
#include "plan/sizes.hpp"

namespace commtune {
namespace {

void validate_options(const SweepOptions& options, const PlanLimits& limits) {
  validate_sweep_options(options);
  if (options.root >= limits.nranks)
    throw InputError("root (-r / root) " + std::to_string(options.root) + " is not a rank (0.." +
                     std::to_string(limits.nranks - 1) + ")");
}

// A plan without a case would measure nothing and report success: bad input, with the reason.
// `size_warnings`: where the planner's warnings about skipped sizes start.
void require_cases(const Plan& plan, std::size_t size_warnings) {
  if (!plan.cases.empty()) return;
  std::string why = "no size from -b to -e is a whole number of elements per rank for these collectives";
  if (plan.warnings.size() > size_warnings) why = plan.warnings[size_warnings];
  throw InputError("nothing to measure: " + why);
}

// Every group size of the sweep's specs (the world's when it has no other).
std::vector<int> group_sizes(const std::vector<GroupLayout>& layouts) {
  std::vector<int> sizes;
  for (const GroupLayout& layout : layouts)
    for (const RankGroup& g : layout.groups) sizes.push_back(static_cast<int>(g.ranks.size()));
  return sizes;
}

// Sizes of the range rounded to the collective's granularity on every group size (a whole number
// of elements per rank in each group), without zeros or repeats.
std::vector<std::uint64_t> sizes_for(Collective c, const SweepOptions& options,
                                     const std::vector<int>& nranks) {
  std::uint64_t grain = 1;
  for (int n : nranks)
    grain = std::lcm(grain, static_cast<std::uint64_t>(size_granularity(c, options.dtype, n)));
  std::vector<std::uint64_t> out;
  for (std::uint64_t size : expand(options.sizes)) {
    const std::uint64_t rounded = size / grain * grain;
    if (rounded > 0 && (out.empty() || out.back() != rounded)) out.push_back(rounded);
  }
  return out;
}

bool fits_in_memory(Collective c, std::uint64_t bytes, const SweepOptions& options,
                    const PlanLimits& limits) {
  if (limits.memory_bytes_per_host == 0) return true;
  const std::uint64_t per_host = bytes_per_rank(c, bytes, options.dtype, limits.nranks) *
                                 static_cast<std::uint64_t>(limits.ranks_per_host);
  return per_host <= limits.memory_bytes_per_host / 2;
}

bool fits_in_one_call(Collective c, std::uint64_t bytes, const SweepOptions& options,
                      const PlanLimits& limits) {
  return limits.max_count == 0 ||
         buffer_counts(c, bytes, options.dtype, limits.nranks).count <= limits.max_count;
}

std::string cap_warning(Collective c, std::uint64_t first_skipped, bool memory, const PlanLimits& limits) {
  const std::string why = memory ? "buffers of " + std::to_string(limits.ranks_per_host) +
                                       " ranks per host would not fit in half of " +
                                       format_size(limits.memory_bytes_per_host) + " of available memory"
                                 : "more than " + std::to_string(limits.max_count) + " elements per call";
  return std::string(name_of(c)) + ": sizes from " + format_size(first_skipped) + " up skipped: " + why;
}

std::vector<std::uint64_t> capped_sizes(Collective c, const SweepOptions& options, const PlanLimits& limits,
                                        const std::vector<GroupLayout>& layouts,
                                        std::vector<std::string>& warnings) {
  std::vector<std::uint64_t> sizes = sizes_for(c, options, group_sizes(layouts));
  const auto too_big = std::find_if(sizes.begin(), sizes.end(), [&](std::uint64_t bytes) {
    return !fits_in_memory(c, bytes, options, limits) || !fits_in_one_call(c, bytes, options, limits);
  });
  if (too_big != sizes.end()) {
    warnings.push_back(cap_warning(c, *too_big, !fits_in_memory(c, *too_big, options, limits), limits));
    sizes.erase(too_big, sizes.end());
  }
  return sizes;
}

// --workload: the step's sizes of `c` on `spec` that fit (the rest said in a warning), ascending.
std::vector<std::uint64_t> workload_sizes_of(Collective c, const GroupLayout& layout,
                                             const SweepOptions& options, const PlanLimits& limits,
                                             std::vector<std::string>& warnings) {
  std::vector<std::uint64_t> out;
  const auto grain = size_granularity(c, options.dtype, static_cast<int>(layout.largest_group()));
  for (const WorkloadSize& w : options.workload_sizes) {
    if (w.collective != c || !(w.group == layout.spec)) continue;
    if (w.bytes % grain != 0) {
      warnings.push_back(std::string(name_of(c)) + " " + format_size(w.bytes) + " on " + layout.spec.name() +
                         " left out: not a whole number of " + std::string(name_of(options.dtype)) +
                         " elements per rank (-d)");
      continue;
    }
    if (!fits_in_memory(c, w.bytes, options, limits) || !fits_in_one_call(c, w.bytes, options, limits)) {
      warnings.push_back(cap_warning(c, w.bytes, !fits_in_memory(c, w.bytes, options, limits), limits));
      continue;
    }
    out.push_back(w.bytes);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Case make_case(std::size_t setting_index, Collective c, std::uint64_t bytes, Placement p,
               const SweepOptions& o, const GroupLayout& layout) {
  const int nranks = static_cast<int>(layout.largest_group());
  Case k;
  k.setting_index = setting_index;
  k.collective = c;
  k.bytes = bytes;
  k.count = buffer_counts(c, bytes, o.dtype, nranks).count;
  k.dtype = o.dtype;
  k.op = o.op;
  k.root = traits_of(c).rooted ? o.root : -1;
  k.placement = p;
  k.group = layout.spec;
  return k;
}

}  // namespace

std::vector<int> node_of_each_rank(const PlanLimits& limits) {
  if (static_cast<int>(limits.node_of_rank.size()) == limits.nranks) return limits.node_of_rank;
  std::vector<int> nodes;
  for (int r = 0; r < limits.nranks; ++r) nodes.push_back(r / std::max(1, limits.ranks_per_host));
  return nodes;
}

namespace {

// Every spec's groups, each of two ranks or more: a group of one rank would measure a local copy.
std::vector<GroupLayout> layouts_of(const SweepOptions& options, const PlanLimits& limits) {
  std::vector<GroupLayout> layouts;
  const std::vector<int> nodes = node_of_each_rank(limits);
  for (const GroupSpec& spec : options.groups) {
    GroupLayout layout = layout_groups(spec, nodes);
    if (!spec.is_world())
      for (const RankGroup& g : layout.groups)
        if (g.ranks.size() < 2)
          throw InputError("group spec '" + spec.name() + "' (--groups / groups): rank " +
                           std::to_string(g.ranks.front()) + " is a group of one rank (" +
                           std::to_string(layout.groups.size()) + " groups of " +
                           std::to_string(limits.nranks) + " ranks); a collective needs two");
    for (const RankGroup& g : layout.groups)
      if (options.root >= static_cast<int>(g.ranks.size()))
        throw InputError("root (-r / root) " + std::to_string(options.root) +
                         " is not a rank of every group of '" + spec.name() + "' (the smallest has " +
                         std::to_string(g.ranks.size()) + ")");
    layouts.push_back(std::move(layout));
  }
  return layouts;
}

}  // namespace

const GroupLayout& Plan::layout_of(const GroupSpec& spec) const {
  for (const GroupLayout& layout : groups)
    if (layout.spec == spec) return layout;
  throw std::out_of_range("plan has no group spec " + spec.name());
}

Plan make_plan(const SweepOptions& options, const std::vector<Setting>& settings, const PlanLimits& limits) {
  validate_options(options, limits);
  Plan plan{options, settings, {}, limits.nranks, {}, layouts_of(options, limits)};
  if (plan.options.check)
    if (const auto inexact = inexact_check(options.dtype, options.op, limits.nranks)) {
      plan.options.check = false;
      plan.warnings.push_back(*inexact);
    }
  plan.warnings.insert(plan.warnings.end(), options.notes.begin(), options.notes.end());
  if (!options.left_out_settings.empty()) {
    std::string names;
    for (const auto& name : options.left_out_settings) names += (names.empty() ? "" : ", ") + name;
    plan.warnings.push_back(
        std::to_string(options.left_out_settings.size()) +
        " setting(s) of the config left out: they run only on collectives this sweep does not measure (" +
        names + ")");
  }
  if (limits.nranks == 1)
    plan.warnings.push_back(
        "one rank: every collective is a local copy (busbw 0); launch more ranks (mpirun -np N, or --ranks "
        "N)");
  const std::size_t size_warnings = plan.warnings.size();
  std::vector<std::vector<std::uint64_t>> sizes_by_collective;
  for (Collective c : options.collectives)
    sizes_by_collective.push_back(options.workload_sizes.empty()
                                      ? capped_sizes(c, options, limits, plan.groups, plan.warnings)
                                      : std::vector<std::uint64_t>{});
  std::vector<std::string> ignored;  // a workload size's warning, said for the first setting only
  // Setting-major order: a setting's cases run together, in one process where isolation needs it;
  // then by group spec, as a job's communicators are made once.
  for (std::size_t s = 0; s < settings.size(); ++s)
    for (const GroupLayout& layout : plan.groups)
      for (std::size_t ci = 0; ci < options.collectives.size(); ++ci) {
        const Collective c = options.collectives[ci];
        if (!settings[s].applies_to(c)) continue;
        const std::vector<std::uint64_t> sizes =
            options.workload_sizes.empty()
                ? sizes_by_collective[ci]
                : workload_sizes_of(c, layout, options, limits, s == 0 ? plan.warnings : ignored);
        for (std::uint64_t bytes : sizes)
          for (Placement p : options.placements)
            plan.cases.push_back(make_case(s, c, bytes, p, options, layout));
      }
  for (std::size_t i = 0; i < plan.cases.size(); ++i) plan.cases[i].index = i;
  require_cases(plan, size_warnings);
  return plan;
}

}  // namespace commtune
