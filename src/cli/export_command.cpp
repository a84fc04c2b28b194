#include "cli/commands.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/message_text.hpp"
#include "exports/export_writer.hpp"
#include "core/output_file.hpp"
#include "host/tuner_plugin_location.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

constexpr const char* kFormats = "shell, conf, docker, json, nccl-tuner, ompi-rules, all";

// Flags first: a wrong or contradictory flag is refused before any input is read.
void check_flags(const ExportCommandOptions& o) {
  const auto writers = make_export_writers();
  const bool known = o.format == "all" || std::any_of(writers.begin(), writers.end(),
                                                      [&](const auto& w) { return w->format() == o.format; });
  if (!known) throw InputError("unknown --format " + quote_text(o.format) + " (" + kFormats + ")");
  const bool all = o.format == "all";
  if (o.command->count("--out-dir") > 0 && !all)
    throw InputError("--out-dir is for --format all; one format takes --out FILE");
  if (o.command->count("--out") > 0 && all)
    throw InputError("--format all writes into --out-dir DIR, not --out");
}

Recommendation load_recommendation(const ExportCommandOptions& o) {
  resolve_tune_options(o.flags, ResultsDocument{});  // bad flags are refused before any file is read
  const nlohmann::json doc = read_json_file(o.input_path, "input file");
  if (is_recommendation_json(doc)) {
    Recommendation rec = recommendation_from_json(doc, o.input_path);
    if (rec.incomplete && !o.allow_incomplete)
      throw InputError(
          o.input_path +
          ": incomplete: true: tuned on an interrupted sweep; pass --allow-incomplete to export it anyway");
    return rec;
  }
  if (!doc.is_object() || !doc.contains("schema_version"))
    throw InputError(
        o.input_path +
        ": neither a commtune recommendation (\"kind\") nor a results file (\"schema_version\")");
  const ResultsDocument results = results_from_json(doc, o.input_path);
  require_usable_results(results, o.input_path, o.allow_incomplete);
  return tune(results, resolve_tune_options(o.flags, results));
}

void write_file(const ExportWriter& writer, const ExportPlan& plan, const std::string& path,
                const OutputPolicy& policy) {
  emit_output(path, policy, [&](std::ostream& out) { writer.write(plan, out); });
  if (!path.empty()) std::cerr << "commtune: " << writer.format() << " -> " << path << "\n";
}

int write_all(const ExportPlan& plan, const std::string& dir, const OutputPolicy& policy) {
  if (dir.empty()) throw InputError("--format all needs --out-dir DIR");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) throw InputError("--out-dir '" + dir + "' is not a folder");
  const auto writers = make_export_writers();
  std::vector<std::pair<const ExportWriter*, std::string>> files;
  for (const auto& writer : writers)
    if (writer->applies_to(plan.backend))
      files.emplace_back(writer.get(), dir + "/" + writer->file_name(plan.backend));
  for (const auto& [writer, path] : files)
    check_output_path(path, policy);  // all refused before one is written
  for (const auto& [writer, path] : files) write_file(*writer, plan, path, policy);
  return 0;
}

}  // namespace

void add_export_command(CLI::App& app, ExportCommandOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("export", "Write the recommendation as env files, NCCL tuner CSV or Open MPI rules");
  cmd->add_option("input", o.input_path, "A recommendation (commtune tune --out) or a results JSON")
      ->required();
  cmd->add_option("--format", o.format,
                  "shell (default), conf, docker, json, nccl-tuner, ompi-rules, or all");
  cmd->add_option("--out", o.out_path, "Output file for one format (default: stdout)");
  cmd->add_option("--out-dir", o.out_dir, "Folder for --format all");
  cmd->add_flag("--force", o.force,
                "Replace existing output files (never an input, never through a symbolic link)");
  cmd->add_flag(
      "--nccl-algo-env", o.nccl_algo_env,
      "NCCL: also put the per-collective NCCL_ALGO / NCCL_PROTO choices in the env files (NCCL debugging "
      "variables, not for production: by default per-size choices go through commtune's tuner plugin)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
  add_tune_flags(*cmd, o.flags);
  o.command = cmd;
}

int run_export_command(const ExportCommandOptions& o) {
  check_flags(o);
  const OutputPolicy policy{o.force, {o.input_path}};
  ExportOptions options;
  options.nccl_algo_proto_env = o.nccl_algo_env;
  options.tuner_plugin_path = find_tuner_plugin().path;
  const Recommendation rec = load_recommendation(o);
  const ExportPlan plan = make_export_plan(rec, options);
  if (rec.incomplete)  // the files say it in their notes; the ompi-rules file holds numbers only
    std::cerr << "commtune: note: tuned on an interrupted sweep (--allow-incomplete)\n";
  if (o.format == "all") return write_all(plan, o.out_dir, policy);
  const auto writers = make_export_writers();
  const auto writer = std::find_if(writers.begin(), writers.end(),  // check_flags: it is there
                                   [&](const auto& w) { return w->format() == o.format; });
  if (!(*writer)->applies_to(plan.backend))
    throw InputError("format " + o.format + " does not apply to the " + std::string(name_of(plan.backend)) +
                     " backend");
  write_file(**writer, plan, o.out_path, policy);
  return 0;
}

}  // namespace commtune
