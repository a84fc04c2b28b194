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

std::vector<std::string> summary_lines(const Recommendation& rec) {
  std::vector<std::string> lines{"commtune recommendation: backend " + std::string(name_of(rec.backend)) +
                                 ", " + std::to_string(rec.nranks) + " ranks on " +
                                 std::to_string(rec.nnodes) + " node(s)"};
  if (rec.defaults_best()) lines.push_back("the defaults are already best: nothing is set");
  for (const auto& c : rec.choices)
    if (c.setting != kDefaultSettingName)
      lines.push_back(c.scope + ": " + c.setting + " (" + format_percent(c.objective_gain) +
                      " saved on the objective" + (rec.confirmed ? ", re-measured" : ", not re-measured") +
                      ")");
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
