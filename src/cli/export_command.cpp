#include "cli/export_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "report/export_writer.hpp"
#include "results/results_document.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

Recommendation load_recommendation(const ExportCommandOptions& o) {
  const nlohmann::json doc = read_json_file(o.input_path);
  if (is_recommendation_json(doc)) return recommendation_from_json(doc, o.input_path);
  return tune(results_from_json(doc, o.input_path), resolve_tune_options(o.flags));
}

void write_file(const ExportWriter& writer, const ExportPlan& plan, const std::string& path) {
  std::ofstream out(path);
  writer.write(plan, out);
  if (!out) throw InputError("cannot write '" + path + "'");
  std::cerr << "commtune: " << writer.format() << " -> " << path << "\n";
}

int write_all(const ExportPlan& plan, const std::string& dir) {
  if (dir.empty()) throw InputError("--format all needs --out-dir DIR");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const auto& writer : make_export_writers())
    if (writer->applies_to(plan.backend)) write_file(*writer, plan, dir + "/" + writer->file_name(plan.backend));
  return 0;
}

}  // namespace

void add_export_command(CLI::App& app, ExportCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("export", "Write the recommendation as env files, NCCL tuner CSV or Open MPI rules");
  cmd->add_option("input", o.input_path, "A recommendation (commtune tune --out) or a results JSON")->required();
  cmd->add_option("--format", o.format, "shell (default), conf, docker, json, nccl-tuner, ompi-rules, or all");
  cmd->add_option("--out", o.out_path, "Output file for one format (default: stdout)");
  cmd->add_option("--out-dir", o.out_dir, "Folder for --format all");
  add_tune_flags(*cmd, o.flags);
}

int run_export_command(const ExportCommandOptions& o) {
  const ExportPlan plan = make_export_plan(load_recommendation(o));
  if (o.format == "all") return write_all(plan, o.out_dir);
  for (const auto& writer : make_export_writers()) {
    if (writer->format() != o.format) continue;
    if (!writer->applies_to(plan.backend))
      throw InputError("format " + o.format + " does not apply to the " + plan.backend + " backend");
    if (o.out_path.empty()) writer->write(plan, std::cout);
    else write_file(*writer, plan, o.out_path);
    return 0;
  }
  throw InputError("unknown --format '" + o.format + "' (shell, conf, docker, json, nccl-tuner, ompi-rules, all)");
}

}  // namespace commtune
