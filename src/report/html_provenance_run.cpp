#include "report/html_provenance_facts.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "core/text_format.hpp"
#include "core/types.hpp"
#include "html/number_text.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// An argument as a shell reads it back: quoted when it holds anything but plain characters.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) ||
           std::string_view("_./:=,+-@%").find(static_cast<char>(c)) != std::string_view::npos;
  });
  if (plain) return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "Slurm job 7 on n[1-4] (4 nodes); step 0 on n[1-4], 8 tasks, 2(x4) per node".
std::string slurm_text(const json& slurm) {
  std::string job = "Slurm job " + scalar_text(slurm.value("job_id", json("?")));
  if (slurm.contains("nodelist")) job += " on " + scalar_text(slurm["nodelist"]);
  if (slurm.contains("nnodes")) job += " (" + scalar_text(slurm["nnodes"]) + " nodes)";
  if (!slurm.contains("step_id")) return job;
  job += "; step " + scalar_text(slurm["step_id"]);
  if (slurm.contains("step_nodelist")) job += " on " + scalar_text(slurm["step_nodelist"]);
  if (slurm.contains("ntasks")) job += ", " + scalar_text(slurm["ntasks"]) + " tasks";
  if (slurm.contains("tasks_per_node")) job += ", " + scalar_text(slurm["tasks_per_node"]) + " per node";
  return job;
}

}  // namespace

void add_command(const std::string& label, const json& argv, ProvenanceFacts& rows) {
  if (!argv.is_array() || !std::all_of(argv.begin(), argv.end(), [](const json& a) { return a.is_string(); }))
    return add_value(label, argv, rows);
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + shell_word(a.get<std::string>());
  rows.push_back({label, html::text_lines({cut(line)})});
}

void add_launcher(const std::string& label, const json& launcher, ProvenanceFacts& rows) {
  if (!launcher.is_object() || string_at(launcher, "name").empty()) return add_value(label, launcher, rows);
  std::vector<std::string> lines{string_at(launcher, "name")};
  if (launcher.contains("slurm") && launcher["slurm"].is_object())
    lines.push_back(cut(slurm_text(launcher["slurm"])));
  rows.push_back({label, html::text_lines(lines)});
  add_other_members(launcher, {"name", "slurm"}, label + " ", rows);
}

void add_config(const std::string& label, const json& config, ProvenanceFacts& rows) {
  if (!config.is_object()) return add_value(label, config, rows);
  const std::string name = string_at(config, "name"), description = string_at(config, "description");
  std::vector<std::string> lines{name.empty() ? "none: the command line's options only" : name};
  if (!description.empty()) lines.push_back(cut(description));
  rows.push_back({label, html::text_lines(lines)});
  add_other_members(config, {"name", "description"}, label + " ", rows);
}

void add_settings(const std::vector<Setting>& settings, ProvenanceFacts& rows) {
  if (settings.empty()) return;
  html::Table table{{"setting", "knobs", "collectives"}, {}, {}};
  for (const auto& s : settings) {
    std::string knobs, collectives;
    for (const auto& [name, value] : s.knobs) knobs += (knobs.empty() ? "" : "; ") + name + "=" + value;
    for (const Collective c : s.collectives)
      collectives += (collectives.empty() ? "" : ", ") + std::string(name_of(c));
    table.rows.push_back({s.name, knobs.empty() ? "none: the library's own choice" : cut(knobs),
                          collectives.empty() ? "all" : collectives});
  }
  rows.push_back(
      {"settings", html::render_collapsed_table(table, "provenance-detail", kShownRows, "settings")});
}

void add_mpi(const std::string& label, const json& mpi, ProvenanceFacts& rows) {
  if (!mpi.is_object()) return add_value(label, mpi, rows);
  if (mpi.contains("mpi_library")) add_value(label + " library", mpi["mpi_library"], rows);
  if (mpi.contains("mpi_standard")) add_value(label + " standard", mpi["mpi_standard"], rows);
  add_other_members(mpi, {"mpi_library", "mpi_standard"}, label + " ", rows);
}

void add_ceiling(const std::string& label, const json& c, ProvenanceFacts& rows) {
  const auto gbps = c.is_object() ? c.find("gbps") : c.end();
  if (!c.is_object() || gbps == c.end() || !gbps->is_number() || string_at(c, "path").empty())
    return add_value(label, c, rows);
  std::vector<std::string> lines{string_at(c, "path") + ": " + printf_string("%.1f", gbps->get<double>()) +
                                 " GB/s per direction"};
  if (const std::string basis = string_at(c, "basis"); !basis.empty())
    lines.push_back("basis: " + cut(basis));
  if (c.contains("expected_low") && c.contains("expected_high") && c["expected_low"].is_number() &&
      c["expected_high"].is_number())
    lines.push_back("published runs reach " + html::number(c["expected_low"].get<double>() * 100, 2) + "-" +
                    html::number(c["expected_high"].get<double>() * 100, 2) + "% of it (" +
                    cut(string_at(c, "expected_source")) + ")");
  rows.push_back({label, html::text_lines(lines)});
  add_other_members(c, {"gbps", "path", "basis", "expected_low", "expected_high", "expected_source"},
                    label + " ", rows);
}

void add_environment(const std::string& label, const json& environment, ProvenanceFacts& rows) {
  if (!environment.is_object()) return add_value(label, environment, rows);
  if (environment.empty())
    return rows.push_back({label, html::text_lines({"no variable that shapes a run was set"})});
  html::Table table{{"variable", "value"}, {}, {}};
  for (const auto& [name, value] : environment.items()) table.rows.push_back({name, scalar_text(value)});
  rows.push_back({label, html::render_collapsed_table(table, "provenance-detail", kShownRows, "variables")});
}

}  // namespace commtune
