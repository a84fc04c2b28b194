#include "cli/commands.hpp"

#include <filesystem>
#include <iostream>
#include <set>

#include "cli/tune_flags.hpp"
#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/message_text.hpp"
#include "writers/compare_writers.hpp"
#include "core/output_file.hpp"
#include "core/json_file.hpp"
#include "replay/replay_as_results.hpp"
#include "results/results_input.hpp"
#include "tune/regression_compare.hpp"

namespace commtune {
namespace {

void render(const CompareReport& report, const std::string& format, std::ostream& out) {
  if (format == "markdown" || format == "md")
    write_compare_markdown(report, out);
  else if (format == "json")
    write_compare_json(report, out);
  else
    throw InputError("unknown --format '" + format + "' (markdown, json)");
}

struct Sides {
  std::vector<std::string> baselines, currents;
};

// The positional pair is one baseline and one current, added to --baseline and --current.
Sides sides_of(const CompareCommandOptions& o) {
  Sides s{o.baselines, o.currents};
  if (o.positional.size() > 2)
    throw InputError("compare takes BASELINE CURRENT, or --baseline FILE ... --current FILE ...: " +
                     std::to_string(o.positional.size()) + " files given without a flag");
  if (o.positional.size() == 1 && s.baselines.empty())
    s.baselines.push_back(o.positional[0]);
  else if (o.positional.size() == 1)
    s.currents.push_back(o.positional[0]);
  if (o.positional.size() == 2) {
    s.baselines.insert(s.baselines.begin(), o.positional[0]);
    s.currents.insert(s.currents.begin(), o.positional[1]);
  }
  if (s.baselines.empty() || s.currents.empty())
    throw InputError(
        "compare needs a baseline and a current results file (BASELINE CURRENT, or --baseline / --current)");
  return s;
}

// One file twice on a side would count its runs twice.
void check_distinct(const std::vector<std::string>& paths, const char* side) {
  std::set<std::string> seen;
  for (const auto& p : paths) {
    std::error_code ec;
    const std::string canonical = std::filesystem::weakly_canonical(p, ec).string();
    if (!seen.insert(ec ? p : canonical).second)
      throw InputError(std::string(side) + " " + quote_text(p, 200) +
                       " is given twice (its runs would count twice)");
  }
}

// Flags first: a wrong flag is refused before any input is read or output opened.
void check_flags(const CompareCommandOptions& o, const Sides& sides) {
  if (o.format != "markdown" && o.format != "md" && o.format != "json")
    throw InputError("unknown --format " + quote_text(o.format) + " (markdown, json)");
  if (!(o.threshold >= 0 && o.threshold <= 10))
    throw InputError("--threshold must be a fraction from 0 to 10 (e.g. 0.05 for 5%)");
  if (o.run_noise != -1 && !(o.run_noise >= 0 && o.run_noise <= 10))
    throw InputError("--run-noise must be a fraction from 0 to 10 (e.g. 0.25 for 25%)");
  check_distinct(sides.baselines, "--baseline");
  check_distinct(sides.currents, "--current");
}

// A sweep's results, nccl-tests' JSON, or a replay's results as its calls' cases
// (replay/replay_as_results); `replays` counts the replays.
ResultsDocument load_compared(const std::string& path, std::size_t& replays) {
  const nlohmann::json document = read_json_file(path, "results file");
  if (!is_replay_json(document)) return load_any_results(path);
  ++replays;
  return replay_as_results(replay_from_json(document, path));
}

std::vector<ResultsDocument> load_side(const std::vector<std::string>& paths, bool allow_incomplete,
                                       std::size_t& replays) {
  std::vector<ResultsDocument> docs;
  for (const auto& path : paths) {
    docs.push_back(load_compared(path, replays));
    require_usable_results(docs.back(), path, allow_incomplete);
  }
  return docs;
}

std::vector<const ResultsDocument*> pointers(const std::vector<ResultsDocument>& docs) {
  std::vector<const ResultsDocument*> out;
  for (const auto& d : docs) out.push_back(&d);
  return out;
}

std::string joined(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

void add_compare_command(CLI::App& app, CompareCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare results files: FASTER / SLOWER / SAME / AMBIGUOUS per case, on the spread between runs");
  cmd->add_option("files", o.positional,
                  "BASELINE CURRENT: results JSON (commtune's, or nccl-tests' -J output)");
  cmd->add_option("--baseline", o.baselines,
                  "A baseline results file (repeatable: every run of every file counts)");
  cmd->add_option("--current", o.currents, "A current results file (repeatable)");
  cmd->add_option("--threshold", o.threshold, "Smallest change that counts, as a fraction (default 0.05)");
  cmd->add_option(
      "--run-noise", o.run_noise,
      "Between-run noise assumed where the runs are too few to show it, as a fraction (default 0.25)");
  cmd->add_option("--format", o.format, "markdown (default) or json");
  cmd->add_option("--out", o.out_path, "Write the report here (default: stdout)");
  cmd->add_flag("--force", o.force,
                "Replace --out if it exists (never an input, never through a symbolic link)");
  add_allow_incomplete_flag(*cmd, o.allow_incomplete);
}

int run_compare_command(const CompareCommandOptions& o) {
  const Sides sides = sides_of(o);
  check_flags(o, sides);
  std::vector<std::string> inputs = sides.baselines;
  inputs.insert(inputs.end(), sides.currents.begin(), sides.currents.end());
  const OutputPolicy policy{o.force, inputs};
  if (!o.out_path.empty()) check_output_path(o.out_path, policy);  // before any work
  std::size_t replays = 0;
  const std::vector<ResultsDocument> baselines = load_side(sides.baselines, o.allow_incomplete, replays);
  const std::vector<ResultsDocument> currents = load_side(sides.currents, o.allow_incomplete, replays);
  // A replay's case is a call's time a step (its repeats together): never set against a sweep's.
  if (replays != 0 && replays != baselines.size() + currents.size())
    throw InputError("compare: " + joined(sides.baselines) + " against " + joined(sides.currents) +
                     ": replay results compare only with replay results");
  const CompareOptions options{o.threshold, o.run_noise < 0 ? kDefaultRunNoise : o.run_noise};
  const CompareReport report = parsed_at(joined(sides.baselines) + " vs " + joined(sides.currents), [&] {
    return compare_results(pointers(baselines), sides.baselines, pointers(currents), sides.currents, options);
  });
  emit_output(o.out_path, policy, [&](std::ostream& out) { render(report, o.format, out); });
  std::cerr << compare_summary_line(report) << "\n";
  return report.regression() ? 1 : 0;
}

}  // namespace commtune
