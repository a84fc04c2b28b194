#pragma once
// The console table, in nccl-tests' layout: one row per size with the out-of-place and in-place
// halves side by side, plus the setting's name in each section header and the dispersion (the
// 5-95 percentile spread) of every figure. Failed cases print their reason under the row. On
// the NCCL backend each half also has nccl-tests' own time (nt-time), and the rows of settings that
// force nothing end with what NCCL chose by itself (nccl-chose; why not, once per section, when it
// was not recorded).
#include <map>
#include <set>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ceiling/ceiling.hpp"
#include "writers/result_sink.hpp"

namespace commtune {

class TableWriter : public ResultSink {
 public:
  explicit TableWriter(std::ostream& out) : out_(out) {}
  void begin(const RunHeader& header) override;
  void run_started(std::size_t run, std::size_t runs) override;
  void round_started(std::size_t round, std::size_t rounds, std::size_t cases) override;
  void case_finished(const CaseResult& result) override;
  void end(const RunSummary& summary) override;

 private:
  struct RowKey {
    std::string setting;
    Collective collective;
    std::uint64_t bytes;
    bool operator==(const RowKey&) const = default;
  };
  void flush_row();
  void print_section_header(const CaseResult& first);
  void note_peak(const CaseResult& r);
  std::string choice_cell(std::vector<std::string>& notes);

  std::ostream& out_;
  std::vector<Placement> placements_;
  std::map<std::string, std::string> setting_descriptions_;
  std::optional<RowKey> row_key_;
  std::vector<CaseResult> row_;
  std::optional<std::pair<std::string, Collective>> section_;
  std::optional<Ceiling> ceiling_;         // an eff% column per half and a verdict: the run has a ceiling
  bool bandwidth_ = true;                  // two ranks or more: algbw, busbw, eff% and peaks shown
  bool show_nccl_tests_ = false;           // an nt-time column per half: the NCCL backend measures it
  std::set<std::string> choice_settings_;  // NCCL settings that force nothing: a nccl-chose column
  bool show_choice_ = false;               // in the current section
  std::string said_unrecorded_;            // the reason last noted in this section
  std::int64_t wrong_total_ = 0;
  struct Peak {
    std::string setting;
    Collective collective;
    double busbw;
    std::uint64_t bytes;
  };
  std::vector<Peak> peaks_;
};

// One formatted half (time algbw busbw cv% #wrong) of a row, or blanks for a case that did not run;
// without `bandwidth` (one rank: no traffic between ranks) "--" for algbw and busbw.
std::string format_half(const CaseResult* result, bool bandwidth = true);

}  // namespace commtune
