#include "report/html_sections.hpp"

#include <algorithm>
#include <set>

#include "html/bar_chart.hpp"
#include "html/escape.hpp"
#include "html/figure.hpp"
#include "html/number_text.hpp"
#include "html/palette.hpp"
#include "html/table.hpp"
#include "measure/decision.hpp"
#include "plan/setting.hpp"

namespace commtune {
namespace {

// Winners in the order of the recommendation's settings, so that each keeps one colour.
std::vector<std::string> winners_of(const Recommendation& rec) {
  std::set<std::string> won;
  for (const auto& d : rec.sizes)
    if (!d.winner.empty()) won.insert(d.winner);
  std::vector<std::string> order;
  for (const auto& s : rec.settings)
    if (won.count(s.name)) order.push_back(s.name);
  for (const auto& name : won)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  return order;
}

std::string colour_of(const std::vector<std::string>& winners, const std::string& name) {
  const auto it = std::find(winners.begin(), winners.end(), name);
  return html::series_colour(static_cast<std::size_t>(it - winners.begin()) +
                             1);  // 0 is the default's, in the results plots
}

std::string chose_text(const SizeDecision& d) { return d.nccl_chose ? describe(*d.nccl_chose) : "-"; }

html::Bar bar_of(const SizeDecision& d, const std::vector<std::string>& winners) {
  const std::string size = html::binary_size(static_cast<double>(d.bytes));
  if (d.winner.empty())
    return {static_cast<double>(d.bytes),
            0,
            0,
            0,
            0,
            "#999999",
            false,
            kDefaultSettingName,
            size + ": the default stays (" + d.reason + "); NCCL chose " + chose_text(d)};
  return {static_cast<double>(d.bytes),
          0,
          d.gain * 100,
          0,
          0,
          colour_of(winners, d.winner),
          !d.confirmed,
          d.winner,
          size + ": " + d.winner + " saves " + html::number(d.gain * 100, 3) + "% (" +
              html::number(d.default_us, 4) + " -> " + html::number(d.winner_us, 4) + " us), " +
              (d.confirmed ? "confirmed" : "not confirmed") + "; NCCL chose " + chose_text(d)};
}

html::Table size_table(const std::vector<const SizeDecision*>& sizes) {
  html::Table t{{"size", "winner", "time saved", "default us", "winner us", "confidence",
                 "why the default stays", "NCCL chose"},
                {},
                {true, false, true, true, true, false, false, false}};
  for (const auto* d : sizes)
    t.rows.push_back({html::binary_size(static_cast<double>(d->bytes)),
                      d->winner.empty() ? "(default)" : d->winner,
                      d->winner.empty() ? "-" : html::number(d->gain * 100, 3) + "%",
                      html::number(d->default_us, 4), d->winner.empty() ? "-" : html::number(d->winner_us, 4),
                      d->winner.empty() ? "-"
                      : d->confirmed    ? "confirmed by re-measure"
                                        : "not confirmed",
                      d->reason, chose_text(*d)});
  return t;
}

// "NCCL chose by itself: RING/LL from 8 B to 64 KiB, RING/SIMPLE from 128 KiB to 4 MiB." (runs of
// neighbouring sizes with one recorded choice), or "" where nothing was recorded.
std::string nccl_choice_words(const std::vector<const SizeDecision*>& sizes) {
  std::string words, current;
  std::uint64_t first = 0, last = 0;
  const auto flush = [&] {
    if (current.empty()) return;
    if (!words.empty()) words += ", ";
    words += current + (first == last ? " at " + html::binary_size(static_cast<double>(first))
                                      : " from " + html::binary_size(static_cast<double>(first)) + " to " +
                                            html::binary_size(static_cast<double>(last)));
  };
  for (const auto* d : sizes) {
    const std::string choice = d->nccl_chose ? short_form(*d->nccl_chose) : "";
    if (choice != current || choice.empty()) flush(), current = choice, first = d->bytes;
    last = d->bytes;
  }
  flush();
  return words.empty() ? "" : " NCCL chose by itself: " + words + ".";
}

std::string description(Collective collective, const std::vector<const SizeDecision*>& sizes) {
  std::size_t won = 0, confirmed = 0;
  double best = 0;
  for (const auto* d : sizes)
    if (!d->winner.empty()) ++won, confirmed += d->confirmed ? 1 : 0, best = std::max(best, d->gain);
  return std::string(name_of(collective)) + ": " + std::to_string(won) + " of " +
         std::to_string(sizes.size()) + " size(s) have a winner over the default (" +
         std::to_string(confirmed) + " confirmed), the largest saving " + html::number(best * 100, 3) +
         "%; at the other sizes the default stays. Faint bars: not confirmed." + nccl_choice_words(sizes);
}

std::string collective_figure(const Recommendation& rec, const std::string& path, Collective collective,
                              const std::string& group, const std::vector<std::string>& winners) {
  std::vector<const SizeDecision*> sizes;
  for (const auto& d : rec.sizes)
    if (d.collective == collective && d.group.spec == group) sizes.push_back(&d);
  html::BarChart chart{
      std::string(name_of(collective)) + group_words(group) + ": which setting wins, per size",
      description(collective, sizes),
      {},
      {},
      1,
      {},
      {}};
  double lo = 1e300, hi = 0, top = 0;
  for (const auto* d : sizes) {
    chart.bars.push_back(bar_of(*d, winners));
    lo = std::min(lo, static_cast<double>(d->bytes)), hi = std::max(hi, static_cast<double>(d->bytes));
    top = std::max(top, d->gain * 100);
  }
  chart.x = html::fitted_axis(html::Scale::Log2Bytes, lo / 2, hi * 2, "message size");
  chart.y = html::fitted_axis(html::Scale::Linear, 0, std::max(top * 1.1, 5.0), "time saved (%)");
  chart.legend.push_back({"default stays", "#999999", "", false, true});
  for (const auto& w : winners) chart.legend.push_back({w, colour_of(winners, w), "", false, true});
  return html::render_figure({path + "-" + std::string(name_of(collective)) + group_id(group) + "-tune",
                              chart.title, html::render_bar_chart(chart), chart.description,
                              size_table(sizes)});
}

std::string choices_table(const Recommendation& rec) {
  html::Table t{
      {"scope", "setting", "objective gain", "weight won", "why"}, {}, {false, false, true, true, false}};
  for (const auto& c : rec.choices)
    t.rows.push_back({c.scope, c.setting, html::number(c.objective_gain * 100, 3) + "%",
                      html::number(c.weight_won * 100, 3) + "%", c.why});
  return "<h3>Job-wide choices</h3>\n<p>Objective: " + html::escape(rec.objective) + "</p>\n" +
         html::render_table(t, "choices") + "\n";
}

std::string remarks(const Recommendation& rec) {
  std::string out;
  for (const auto& [name, why] : rec.disqualified)
    out += "<li>never recommended: " + html::escape(name + ": " + why) + "</li>";
  for (const auto& note : rec.notes) out += "<li>" + html::escape(note) + "</li>";
  for (const auto& label : rec.labels) out += "<li>label: " + html::escape(label) + "</li>";
  if (rec.incomplete) out += "<li>tuned on an interrupted sweep</li>";
  return out.empty() ? "" : "<ul class=\"notes\">" + out + "</ul>\n";
}

}  // namespace

html::Section tune_section(const Recommendation& rec, const std::string& path) {
  const std::vector<std::string> winners = winners_of(rec);
  std::string body =
      "<p>" +
      html::escape(std::string(name_of(rec.backend)) + ", " + std::to_string(rec.nranks) + " ranks on " +
                   std::to_string(rec.nnodes) + " node(s); a winner needs " +
                   rule_text(DecisionRule{.margin = rec.min_margin}) + "; " +
                   (rec.confirmed ? "finalists re-measured in " + std::to_string(rec.confirm_rounds) +
                                        " interleaved round(s)"
                                  : "no confirmation round")) +
      ".</p>\n" + remarks(rec);
  std::set<std::pair<Collective, std::string>> seen;
  for (const auto& d : rec.sizes)
    if (seen.insert({d.collective, d.group.spec}).second)
      body += collective_figure(rec, path, d.collective, d.group.spec, winners);
  body += choices_table(rec);
  return {"tune-" + path, "Tuner: " + path, body};
}

}  // namespace commtune
