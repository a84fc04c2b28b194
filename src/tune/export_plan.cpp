#include "tune/export_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "core/text_format.hpp"
#include "plan/sizes.hpp"
#include "knobs/knob_grammar.hpp"
#include "knobs/ompi_algorithms.hpp"

namespace commtune {

std::uint64_t bucket_edge(std::uint64_t below, std::uint64_t above) {
  const auto edge =
      static_cast<std::uint64_t>(std::floor(std::sqrt(static_cast<long double>(below) * above)));
  return std::clamp(edge, below, above - 1);
}

namespace {

// The group shapes the recommendation decided on, each once, the world's first.
std::vector<GroupShape> shapes_decided(const Recommendation& rec) {
  std::vector<GroupShape> shapes;
  for (const SizeDecision& d : rec.sizes)
    if (std::none_of(shapes.begin(), shapes.end(),
                     [&](const GroupShape& s) { return s.spec == d.group.spec; }))
      shapes.push_back(d.group);
  std::stable_sort(shapes.begin(), shapes.end(),
                   [](const GroupShape& a, const GroupShape& b) { return a.is_world() && !b.is_world(); });
  return shapes;
}

// With several group shapes, a line per shape: what the one value does to its communicators.
void add_shape_lines(const Recommendation& rec, const JobChoice& c, std::vector<std::string>& lines) {
  const std::vector<ShapeEffect> effects = shape_effects(rec, c);
  if (effects.size() < 2) return;
  for (const ShapeEffect& e : effects) {
    const int nranks = e.shape.is_world() ? rec.nranks : e.shape.nranks;
    const int nnodes = e.shape.is_world() ? rec.nnodes : e.shape.nnodes;
    lines.push_back(
        "  on " + e.shape.spec + " (communicators of " + std::to_string(nranks) + " ranks on " +
        std::to_string(nnodes) + " node(s)): " +
        (e.faster ? "faster at " + std::to_string(e.faster) + " size(s), up to " + format_percent(e.best)
                  : std::string("faster at no size")) +
        (e.slower ? "; slower at " + std::to_string(e.slower) + " size(s), up to " +
                        format_percent(-e.worst) + " lost"
                  : std::string("; slower at none")));
  }
}

}  // namespace

std::vector<ShapeEffect> shape_effects(const Recommendation& rec, const JobChoice& choice) {
  std::vector<ShapeEffect> effects;
  for (const GroupShape& shape : shapes_decided(rec)) {
    ShapeEffect e{.shape = shape};
    for (const RangeGain& g : choice.gains) {
      if (g.group != shape.spec) continue;
      (g.min_gain < 0 ? e.slower : e.faster) += g.sizes;
      e.best = std::max(e.best, g.max_gain), e.worst = std::min(e.worst, g.min_gain);
    }
    effects.push_back(e);
  }
  return effects;
}

namespace {

std::vector<std::string> summary_lines(const Recommendation& rec) {
  std::vector<std::string> lines{"commtune recommendation: backend " + std::string(name_of(rec.backend)) +
                                 ", " + std::to_string(rec.nranks) + " ranks on " +
                                 std::to_string(rec.nnodes) + " node(s)"};
  if (rec.defaults_best()) lines.push_back("the defaults are already best: nothing is set");
  for (const auto& c : rec.choices) {
    if (c.setting == kDefaultSettingName) continue;
    lines.push_back(c.scope + ": " + c.setting + " (" + format_percent(c.objective_gain) +
                    " saved on the objective" + (rec.confirmed ? ", re-measured" : ", not re-measured") +
                    ")");
    add_shape_lines(rec, c, lines);
  }
  return lines;
}

void check_entries(const std::vector<EnvEntry>& env) {
  for (const auto& e : env)
    if (!is_valid_env_name(e.name) || !is_inert_value(e.value))
      throw InputError("refusing to export " + e.name + ": name or value is not safe");
}

}  // namespace

ExportPlan make_export_plan(const Recommendation& rec, const ExportOptions& options) {
  for (const auto& s : rec.settings)
    for (const auto& [name, value] : s.knobs) validate_knob(rec.backend, name, value);
  ExportPlan plan;
  plan.backend = rec.backend;
  plan.nranks = rec.nranks;
  plan.nnodes = rec.nnodes;
  plan.summary = summary_lines(rec);
  for (const auto& label : rec.labels) plan.notes.push_back("measured with " + label);
  if (rec.incomplete)
    plan.notes.push_back("tuned on an interrupted sweep (\"complete\": false): its finished cases only");
  plan.tuner_plugin_path = options.tuner_plugin_path;
  plan.env = compose_environment(rec, options.nccl_algo_proto_env, plan.notes);
  check_entries(plan.env);
  for (const auto& e : plan.env)
    if (rec.backend == BackendKind::Nccl && (e.name == "NCCL_ALGO" || e.name == "NCCL_PROTO")) {
      plan.warnings.push_back(
          "NCCL_ALGO / NCCL_PROTO are NCCL debugging variables that \"should not be used in production\" "
          "(NVIDIA's "
          "environment documentation): they force one choice for every size; commtune's tuner plugin "
          "(--format nccl-tuner) is the production path");
      break;
    }
  switch (rec.backend) {
    case BackendKind::Mpi:
      plan.ompi_rules = ompi_size_rules(rec);
      plan.ompi_group_rules = ompi_group_sections(rec, plan.notes);
      break;
    case BackendKind::Nccl:
      plan.tuner_rows = tuner_csv_rows(rec, plan.notes);
      break;
  }
  return plan;
}

}  // namespace commtune
