#include "report/html_replay_section.hpp"

#include "html/escape.hpp"
#include "html/figure.hpp"
#include "html/number_text.hpp"
#include "html/palette.hpp"
#include "html/stacked_bars.hpp"
#include "html/table.hpp"
#include "replay/replay_table.hpp"
#include "replay/replay_verdict.hpp"

namespace commtune {
namespace {

double ms(double seconds) { return seconds * 1e3; }

html::StackedBar bar_of(const ReplayRecord& r, const SettingFigures& f) {
  html::StackedBar bar{f.setting, {}, ms(f.step.median), ms(f.step.median_ci_low), ms(f.step.median_ci_high)};
  for (std::size_t i = 0; i < f.calls.size() && i < r.workload.collectives.size(); ++i)
    bar.segments.push_back({ms(f.calls[i].median_s), html::series_colour(i), "call " + std::to_string(i),
                            call_text(r.workload.collectives[i]) + ": " +
                                html::number(ms(f.calls[i].median_s)) + " ms, " +
                                html::number(f.calls[i].share * 100) + "% of the step"});
  return bar;
}

// A legend's name: "allreduce 25 MiB world x3" (the table and the tooltips have the rest).
std::string short_call(const WorkloadCollective& c) {
  return std::string(name_of(c.collective)) + " " + html::binary_size(static_cast<double>(c.bytes)) + " " +
         c.group.name() + (c.count > 1 ? " x" + std::to_string(c.count) : "");
}

// The plotted numbers: each setting's calls, their medians and shares.
html::Table call_numbers(const ReplayRecord& r, const std::vector<SettingFigures>& figures) {
  html::Table t{{"setting", "call", "median (ms)", "share of the step"}, {}, {false, false, true, true}};
  for (const SettingFigures& f : figures)
    for (std::size_t i = 0; i < f.calls.size() && i < r.workload.collectives.size(); ++i)
      t.rows.push_back({f.setting, call_text(r.workload.collectives[i]),
                        html::number(ms(f.calls[i].median_s)), html::number(f.calls[i].share * 100) + "%"});
  return t;
}

std::string change_text(const SettingFigures& f) {
  if (!f.change) return "-";
  return html::signed_percent(f.change->change) + " [" + html::signed_percent(f.change->low) + ", " +
         html::signed_percent(f.change->high) + "]";
}

std::string money_text(const ReplayRecord& r, const SettingFigures& f) {
  if (!f.change || !f.change->money) return "-";
  return r.options.price->currency + " " + html::number(f.change->money->per_1000_steps) + " [" +
         html::number(f.change->money->per_1000_low) + ", " + html::number(f.change->money->per_1000_high) +
         "]";
}

html::Table numbers(const ReplayRecord& r, const std::vector<SettingFigures>& figures) {
  html::Table t{
      {"setting", "step (ms)", "95% interval (ms)", "change vs default", "verdict", "saved per 1000 steps"},
      {},
      {false, true, true, true, false, true}};
  for (const SettingFigures& f : figures)
    t.rows.push_back(
        {f.setting, f.step.count ? html::number(ms(f.step.median)) : "-",
         f.step.count
             ? html::number(ms(f.step.median_ci_low)) + " - " + html::number(ms(f.step.median_ci_high))
             : "-",
         change_text(f), name_of(f.verdict) + (f.reason.empty() ? "" : ": " + f.reason), money_text(r, f)});
  return t;
}

}  // namespace

html::Section replay_section(const ReplayRecord& r, const std::string& path) {
  const std::vector<SettingFigures> figures = judge_replay(r.settings, r.options, r.nranks);
  html::StackedBars chart{"Step communication time per setting", "", "step (ms)", {}, {}};
  for (const SettingFigures& f : figures)
    if (f.step.count > 0) chart.bars.push_back(bar_of(r, f));
  for (std::size_t i = 0; i < r.workload.collectives.size(); ++i)
    chart.legend.push_back({short_call(r.workload.collectives[i]), html::series_colour(i), "", false, true});
  chart.description = "One bar per setting: the median of its replayed steps (" + std::to_string(r.nranks) +
                      " ranks), split by call in proportion to each call's median, with the median's "
                      "interval; the table gives each setting's change against the default.";
  const html::Figure figure{"replay-" + path, chart.title, html::render_stacked_bars(chart),
                            chart.description, call_numbers(r, figures)};
  const std::string text = replay_table(r);  // its first line, without the "# "
  std::string body = "<p>" + html::escape(text.substr(2, text.find('\n') - 2)) + "</p>\n";
  body +=
      html::render_figure(figure) + "\n" + html::render_table(numbers(r, figures), "replay-verdicts") + "\n";
  return html::Section{"replay-" + path, "Replay: " + path, body};
}

}  // namespace commtune
