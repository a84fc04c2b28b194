#include "writers/tune_summary_writer.hpp"

#include <cstdio>

#include "core/text_format.hpp"
#include "measure/decision.hpp"
#include "plan/sizes.hpp"

namespace commtune {
namespace {

std::string micros(double us) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f us", us);
  return buffer;
}

std::string knobs_of(const Recommendation& rec, const std::string& name) {
  const Setting* s = rec.find_setting(name);
  if (!s || s->knobs.empty()) return "nothing forced";
  std::string text;
  for (const auto& [k, v] : s->knobs) text += (text.empty() ? "" : " ") + k + "=" + v;
  return text;
}

std::string confidence(const Recommendation& rec) {
  if (rec.confirmed)
    return "high: clear in the sweep and again in " + std::to_string(rec.confirm_rounds) +
           " interleaved re-measure rounds";
  return "medium: clear in the sweep, not re-measured (run the sweep again to re-measure the finalists)";
}

void write_range(const RangeGain& g, std::ostream& out) {
  const bool faster = g.max_gain > 0;
  out << "      " << name_of(g.collective) << " " << format_size(g.min_bytes) << " - "
      << format_size(g.max_bytes) << ": " << (faster ? "faster by " : "SLOWER by ")
      << format_percent(faster ? g.min_gain : -g.max_gain) << " to "
      << format_percent(faster ? g.max_gain : -g.min_gain) << " (" << g.sizes << " size"
      << (g.sizes == 1 ? "" : "s") << (g.group == "world" ? std::string() : ", groups " + g.group) << ")\n";
}

void write_choice(const Recommendation& rec, const JobChoice& c, std::ostream& out) {
  out << "  " << c.scope << ": ";
  if (c.setting == kDefaultSettingName) {
    out << "keep the default (" << c.why << ")\n";
    return;
  }
  out << "use " << c.setting << " (" << knobs_of(rec, c.setting) << ")\n    why: " << c.why << "\n";
  out << "    confidence: " << confidence(rec) << "\n    expected, per measured size range:\n";
  for (const RangeGain& g : c.gains) write_range(g, out);
}

void write_sizes(const Recommendation& rec, std::ostream& out) {
  out << "# per size (" << (rec.confirmed ? "winners re-measured" : "sweep only") << ")\n";
  for (const SizeDecision& d : rec.sizes) {
    char head[64];
    std::snprintf(head, sizeof head, "  %-13s %10s  ", std::string(name_of(d.collective)).c_str(),
                  format_size(d.bytes).c_str());
    out << head;
    if (!d.group.is_world())
      out << "[" << d.group.spec << ": " << d.group.nranks << " ranks, " << d.group.nnodes << " node(s)] ";
    if (d.winner.empty())
      out << "default stays: " << d.reason;
    else
      out << d.winner << " saves " << format_percent(d.gain) << " (" << micros(d.default_us) << " -> "
          << micros(d.winner_us) << ")";
    if (d.nccl_chose)
      out << "; NCCL by itself chose " << describe(*d.nccl_chose) << " here"
          << (d.winner.empty() ? "" : ", the winner forces " + knobs_of(rec, d.winner));
    out << "\n";
  }
}

}  // namespace

void write_tune_summary(const Recommendation& rec, std::ostream& out) {
  out << "# commtune tune: backend " << name_of(rec.backend) << ", " << rec.nranks << " ranks on "
      << rec.nnodes << " node(s)\n";
  for (const auto& label : rec.labels) out << "# label: " << label << "\n";
  out << "# rule: a setting wins only with " << rule_text(DecisionRule{.margin = rec.min_margin})
      << "; wrong data or a failure anywhere disqualifies it\n";
  out << "# objective for job-wide choices: " << rec.objective << "\n";
  for (const auto& note : rec.notes) out << "# note: " << note << "\n";
  if (rec.defaults_best()) out << "# RESULT: the defaults are already best; nothing to change\n";
  out << "# job-wide choices\n";
  if (rec.choices.empty()) out << "  (no candidate settings)\n";
  for (const JobChoice& c : rec.choices) write_choice(rec, c, out);
  write_sizes(rec, out);
  for (const auto& [name, reason] : rec.disqualified)
    out << "# never recommended: " << name << ": " << reason << "\n";
}

}  // namespace commtune
