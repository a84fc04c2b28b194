#include "replay/replay_table.hpp"

#include <cmath>
#include <sstream>

#include "core/text_format.hpp"
#include "plan/sizes.hpp"
#include "replay/replay_verdict.hpp"

namespace commtune {
namespace {

std::string ms(double seconds) { return printf_string("%.3f", seconds * 1e3); }
std::string signed_percent(double fraction) { return printf_string("%+.1f%%", fraction * 100.0); }
std::string money(double amount) { return printf_string("%.4g", amount); }

std::string header_line(const ReplayRecord& r) {
  std::uint64_t calls = 0;
  for (const auto& c : r.workload.collectives) calls += c.count;
  std::string line =
      "# replay of " + (r.workload_file.empty() ? std::string("the workload") : r.workload_file) + ": " +
      std::to_string(calls) + " collectives a step in " + std::to_string(r.workload.collectives.size()) +
      " call(s), " + std::to_string(r.nranks) + " ranks, " + std::to_string(r.rounds_run) + " of " +
      std::to_string(r.options.rounds) + " rounds x " + std::to_string(r.options.steps) + " steps a setting";
  if (r.contend > 0) line += ", under --contend " + printf_string("%g", r.contend);
  return line + "; verdicts by the margin " + format_percent(r.options.rule.margin) + "\n";
}

std::string setting_row(const SettingFigures& f) {
  if (f.step.count == 0)
    return printf_string("%-24s %s: %s\n", f.setting.c_str(), "failed", f.reason.c_str());
  std::string change = "-", interval = "-";
  if (f.change) {
    change = signed_percent(f.change->change);
    interval = "[" + signed_percent(f.change->low) + ", " + signed_percent(f.change->high) + "]";
  }
  return printf_string("%-24s %12s %21s %10s %20s  %s\n", f.setting.c_str(), ms(f.step.median).c_str(),
                       (ms(f.step.median_ci_low) + " - " + ms(f.step.median_ci_high)).c_str(), change.c_str(),
                       interval.c_str(), name_of(f.verdict).c_str());
}

void call_shares(std::ostream& out, const ReplayRecord& r, const SettingFigures& base) {
  out << "# each call's share of the step under " << base.setting << "\n";
  for (std::size_t i = 0; i < base.calls.size() && i < r.workload.collectives.size(); ++i)
    out << "  " << format_percent(base.calls[i].share) << "  " << ms(base.calls[i].median_s) << " ms  "
        << call_text(r.workload.collectives[i]) << "\n";
}

void money_lines(std::ostream& out, const ReplayRecord& r, const std::vector<SettingFigures>& figures) {
  const Price& p = *r.options.price;
  out << "# money at " << money(p.per_gpu_hour) << " " << p.currency << " per GPU-hour, " << r.nranks
      << " GPUs, were the step's communication not hidden behind compute (positive: saved)\n";
  for (const SettingFigures& f : figures) {
    if (!f.change || !f.change->money) continue;
    const MoneyFigure& m = *f.change->money;
    const double sign = f.change->saved_s >= 0 ? 1 : -1;  // figures as the saving or the cost says them
    const auto range = [&](double low, double high) {
      return "[" + money(sign > 0 ? low : -high) + ", " + money(sign > 0 ? high : -low) + "]";
    };
    const bool clear = f.verdict == ReplayVerdict::Faster || f.verdict == ReplayVerdict::Slower;
    out << "  " << f.setting << ": " << (clear ? "" : "(" + name_of(f.verdict) + ") ")
        << (sign > 0 ? "saves " : "costs ") << ms(std::abs(f.change->saved_s)) << " ms a step: " << p.currency
        << " " << money(sign * m.per_1000_steps) << " per 1000 steps "
        << range(m.per_1000_low, m.per_1000_high);
    if (m.per_run)
      out << "; " << p.currency << " " << money(sign * *m.per_run) << " per run of " << p.steps_per_run
          << " steps " << range(*m.per_run_low, *m.per_run_high);
    out << "\n";
  }
}

}  // namespace

std::string call_text(const WorkloadCollective& c) {
  std::string text = std::string(name_of(c.collective)) + " " + format_size(c.bytes) + " " +
                     std::string(name_of(c.datatype)) + " on " + c.group.name() + " (" +
                     std::to_string(c.group_ranks) + " ranks)";
  if (c.count > 1) text += " x" + std::to_string(c.count);
  if (!c.label.empty()) text += " (" + c.label + ")";
  return text;
}

std::string replay_table(const ReplayRecord& r) {
  std::ostringstream out;
  out << header_line(r);
  if (r.provenance.is_object() && r.provenance.contains("labels") && r.provenance["labels"].is_array())
    for (const auto& label : r.provenance["labels"])
      if (label.is_string()) out << "# label: " << label.get<std::string>() << "\n";
  out << printf_string("%-24s %12s %21s %10s %20s  %s\n", "setting", "step (ms)", "median 95% CI (ms)",
                       "vs default", "change interval", "verdict");
  const std::vector<SettingFigures> figures = judge_replay(r.settings, r.options, r.nranks);
  for (const SettingFigures& f : figures) out << setting_row(f);
  for (const SettingFigures& f : figures)
    if (f.verdict == ReplayVerdict::Baseline) call_shares(out, r, f);
  if (r.options.price) money_lines(out, r, figures);
  if (!r.complete)
    out << "# interrupted after " << r.rounds_run << " round(s): the figures hold those rounds\n";
  return out.str();
}

}  // namespace commtune
