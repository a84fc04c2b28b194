#include "writers/table_writer.hpp"

#include <algorithm>
#include <cstdio>

#include "core/text_format.hpp"
#include "core/collective_traits.hpp"
#include "plan/sizes.hpp"
#include "ceiling/ceiling.hpp"
#include "measure/bandwidth.hpp"
#include "writers/layout_phrase.hpp"

namespace commtune {
namespace {

std::string row_label(const CaseResult& r) { return series_name(r.setting, r.spec.group); }

// ", groups MOD 2: 2 groups x 2 ranks x 1 node ..." for a grouped section; nothing for world.
std::string group_phrase(const CaseResult& r) {
  if (!r.groups) return "";
  const std::string& shape = r.groups->shape;
  const std::size_t x1 = shape.find('x'), x2 = shape.find('x', x1 + 1);
  return ", groups " + r.spec.group.name() + ": " + shape.substr(0, x1) + " groups x " +
         shape.substr(x1 + 1, x2 - x1 - 1) + " ranks x " + shape.substr(x2 + 1) +
         " node(s), all at once; time and busbw: the slowest group's, sum: every group's busbw added up";
}

// Each placement's sum of the groups' busbw, in the section's placement order.
std::string group_sums(const std::vector<CaseResult>& row, const std::vector<Placement>& placements) {
  std::string out;
  for (Placement p : placements) {
    const auto match =
        std::find_if(row.begin(), row.end(), [&](const CaseResult& r) { return r.spec.placement == p; });
    out += match != row.end() && match->groups && match->measured()
               ? printf_string("  %9.3f", match->groups->busbw_sum_gbps)
               : printf_string("  %9s", "--");
  }
  return out;
}

std::string knobs_text(const Setting& s) {
  if (s.knobs.empty()) return "nothing forced";
  std::string text;
  for (const auto& [key, value] : s.knobs) text += (text.empty() ? "" : " ") + key + "=" + value;
  return text;
}

// The 5-95 percentile range relative to the median: robust to the rare preempted iteration that
// makes the CV explode on shared machines.
double spread_percent(const SampleStats& s) { return s.median > 0 ? (s.p95 - s.p5) / s.median * 100.0 : 0.0; }

std::string wrong_text(std::int64_t wrong) { return wrong < 0 ? "N/A" : std::to_string(wrong); }

// nccl-tests' time for one half, where the backend measures it (NCCL).
std::string format_nccl_tests(const CaseResult* r) {
  if (r == nullptr || !r->nccl_tests) return printf_string("  %9s", "--");
  return printf_string("  %9.2f", r->nccl_tests->time_us);
}

}  // namespace

std::string format_half(const CaseResult* r, bool bandwidth) {
  if (r == nullptr || !r->measured())
    return printf_string("  %9s  %7s  %7s  %5s  %6s", "--", "--", "--", "--", r ? "fail" : "");
  if (!bandwidth)
    return printf_string("  %9.2f  %7s  %7s  %5.1f  %6s", r->time_us.median, "--", "--",
                         spread_percent(r->time_us), wrong_text(r->wrong).c_str());
  return printf_string("  %9.2f  %7.3f  %7.3f  %5.1f  %6s", r->time_us.median, r->algbw_gbps, r->busbw_gbps,
                       spread_percent(r->time_us), wrong_text(r->wrong).c_str());
}

void TableWriter::begin(const RunHeader& header) {
  placements_ = header.plan.options.placements;
  for (const auto& s : header.plan.settings) setting_descriptions_[s.name] = knobs_text(s);
  const auto layout =
      header.provenance.is_object() ? header.provenance.find("layout") : header.provenance.end();
  const nlohmann::json nodes = layout != header.provenance.end() ? *layout : nlohmann::json();
  out_ << "# commtune sweep: backend " << name_of(header.backend) << ", "
       << layout_phrase(header.plan.nranks, nodes) << ", " << header.plan.cases.size() << " cases"
       << (header.runs > 1 ? " x " + std::to_string(header.runs) + " runs" : "") << "\n";
  if (const auto labels = header.provenance.find("labels");
      labels != header.provenance.end() && labels->is_array())
    for (const auto& label : *labels)
      if (label.is_string()) out_ << "# label: " << label.get<std::string>() << "\n";
  for (const auto& w : header.plan.warnings) out_ << "# warning: " << w << "\n";
  bandwidth_ = measures_bandwidth(header.plan.nranks);
  if (!bandwidth_) out_ << "# note: " << one_rank_note(header.backend) << "\n";
  out_ << "# time: median per-iteration time (us), max over ranks; algbw, busbw from it;"
          " sprd%: (p95 - p5) / median\n";
  show_nccl_tests_ = traits_of(header.backend).nccl_tests_columns;
  if (show_nccl_tests_)
    for (const auto& s : header.plan.settings)
      if (s.is_default()) choice_settings_.insert(s.name);
  ceiling_ = bandwidth_ ? ceiling_from_provenance(header.provenance) : std::nullopt;
  if (ceiling_)
    out_ << "# eff%: busbw / ceiling; ceiling " << printf_string("%.1f GB/s", ceiling_->gbps) << ": "
         << ceiling_->path << " (" << ceiling_->basis << ")\n";
  if (show_nccl_tests_)
    out_ << "# nt-time: nccl-tests' time (us): each rank's timed-loop time / iterations, mean over ranks\n";
  if (!choice_settings_.empty())
    out_ << "# nccl-chose: the algorithm/protocol NCCL's cost table picked by itself, recorded by commtune's "
            "tuner plugin\n";
}

void TableWriter::run_started(std::size_t run, std::size_t runs) {
  flush_row();
  out_ << "#\n# run " << run + 1 << " of " << runs << "\n";
  section_.reset();
}

void TableWriter::round_started(std::size_t round, std::size_t rounds, std::size_t cases) {
  flush_row();
  out_ << "#\n# racing round " << round + 1 << " of at most " << rounds << ": " << cases << " cases\n";
  section_.reset();
}

void TableWriter::print_section_header(const CaseResult& first) {
  out_ << "#\n# setting " << first.setting << " (" << setting_descriptions_[first.setting] << "), "
       << name_of(first.spec.collective) << group_phrase(first) << "\n#\n";
  std::string titles = printf_string("# %10s  %10s  %8s  %6s  %5s", "size", "count", "type", "redop", "root");
  std::string units = printf_string("# %10s  %10s  %8s  %6s  %5s", "(B)", "(elements)", "", "", "");
  std::string groups = printf_string("# %10s  %10s  %8s  %6s  %5s", "", "", "", "", "");
  for (Placement p : placements_) {
    titles += printf_string("  %9s  %7s  %7s  %5s  %6s", "time", "algbw", "busbw", "sprd%", "#wrong");
    units += printf_string("  %9s  %7s  %7s  %5s  %6s", "(us)", "(GB/s)", "(GB/s)", "", "");
    if (show_nccl_tests_) {
      titles += printf_string("  %9s", "nt-time");
      units += printf_string("  %9s", "(us)");
    }
    if (ceiling_) {
      titles += printf_string("  %6s", "eff%");
      units += printf_string("  %6s", "");
    }
    const int width = 42 + (show_nccl_tests_ ? 11 : 0) + (ceiling_ ? 8 : 0);
    groups += printf_string("  %-*s", width, std::string(name_of(p)).c_str());
  }
  if (first.groups)
    for (Placement p : placements_) {
      titles += printf_string("  %9s", p == Placement::InPlace ? "sum-ip" : "sum-oop");
      units += printf_string("  %9s", "(GB/s)");
    }
  show_choice_ = choice_settings_.count(first.setting) > 0;
  said_unrecorded_.clear();
  if (show_choice_) {
    titles += printf_string("  %-14s", "nccl-chose");
    units += printf_string("  %-14s", "(algo/proto)");
  }
  out_ << groups << "\n" << titles << "\n" << units << "\n";
}

void TableWriter::flush_row() {
  if (row_.empty()) return;
  const CaseResult& first = row_.front();
  const std::pair<std::string, Collective> section{row_label(first), first.spec.collective};
  if (section_ != section) print_section_header(first);
  section_ = section;
  std::string line = printf_string(
      "  %10llu  %10zu  %8s  %6s  %5d", static_cast<unsigned long long>(first.spec.bytes), first.spec.count,
      std::string(name_of(first.spec.dtype)).c_str(),
      traits_of(first.spec.collective).reduces ? std::string(name_of(first.spec.op)).c_str() : "none",
      first.spec.root);
  std::vector<std::string> notes;
  for (Placement p : placements_) {
    const CaseResult* match = nullptr;
    for (const auto& r : row_)
      if (r.spec.placement == p) match = &r;
    line += format_half(match, bandwidth_);
    if (show_nccl_tests_) line += format_nccl_tests(match);
    if (ceiling_)
      line += match && match->measured()
                  ? printf_string("  %6.1f", efficiency(match->busbw_gbps, *ceiling_) * 100)
                  : printf_string("  %6s", "--");
    if (match && !match->reason.empty()) notes.push_back(std::string(name_of(p)) + ": " + match->reason);
  }
  if (first.groups) line += group_sums(row_, placements_);
  if (show_choice_) line += "  " + choice_cell(notes);
  out_ << line << "\n";
  for (const auto& n : notes) out_ << "#   ^ " << n << "\n";
  row_.clear();
  row_key_.reset();
}

// The first half's choice; a half that differs, and a reason not yet said in this section, as notes.
std::string TableWriter::choice_cell(std::vector<std::string>& notes) {
  const NcclChoice* shown = nullptr;
  for (Placement p : placements_)
    for (const auto& r : row_) {
      if (r.spec.placement != p || !r.nccl_choice) continue;
      if (shown == nullptr)
        shown = &*r.nccl_choice;
      else if (!(*r.nccl_choice == *shown))
        notes.push_back(std::string(name_of(p)) + ": nccl-chose " + describe(*r.nccl_choice));
    }
  if (shown == nullptr) return "--";
  if (!shown->recorded && shown->reason != said_unrecorded_) {
    notes.push_back("nccl-chose: " + describe(*shown));
    said_unrecorded_ = shown->reason;
  }
  return short_form(*shown);
}

void TableWriter::note_peak(const CaseResult& r) {
  if (!r.measured() || !bandwidth_) return;
  for (auto& p : peaks_)
    if (p.setting == row_label(r) && p.collective == r.spec.collective) {
      if (r.busbw_gbps > p.busbw) p = {row_label(r), r.spec.collective, r.busbw_gbps, r.spec.bytes};
      return;
    }
  peaks_.push_back({row_label(r), r.spec.collective, r.busbw_gbps, r.spec.bytes});
}

void TableWriter::case_finished(const CaseResult& result) {
  const RowKey key{row_label(result), result.spec.collective, result.spec.bytes};
  if (row_key_ && !(*row_key_ == key)) flush_row();
  row_key_ = key;
  row_.push_back(result);
  if (result.wrong > 0) wrong_total_ += result.wrong;
  note_peak(result);
  if (row_.size() == placements_.size()) flush_row();
  out_.flush();
}

void TableWriter::end(const RunSummary& summary) {
  flush_row();
  out_ << "#\n# Out of bounds values : " << wrong_total_ << (wrong_total_ == 0 ? " OK" : " WRONG") << "\n";
  for (const auto& p : peaks_)
    out_ << "# peak busbw "
         << printf_string("%-40s", (p.setting + " " + std::string(name_of(p.collective))).c_str())
         << printf_string("%9.3f GB/s at %s", p.busbw, format_size(p.bytes).c_str()) << "\n";
  if (ceiling_ && !peaks_.empty()) {
    const auto best = std::max_element(peaks_.begin(), peaks_.end(),
                                       [](const Peak& a, const Peak& b) { return a.busbw < b.busbw; });
    out_ << "# efficiency: " << best->setting << " " << name_of(best->collective) << " peak "
         << efficiency_verdict(best->busbw, *ceiling_) << "\n";
  }
  out_ << "# cases: " << summary.measured << " measured, " << summary.wrong_data << " with wrong data, "
       << summary.failed << " failed" << (summary.complete ? "" : " (interrupted)") << "\n";
  out_.flush();
}

}  // namespace commtune
