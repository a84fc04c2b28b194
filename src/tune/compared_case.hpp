#pragma once
// One case of compare's JSON report (`commtune compare --format json`, its "cases"): the one type
// of that shape, written by writers/compare_writers and read back, validated, by
// inputs/compare_report_json for `commtune report`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.hpp"
#include "measure/statistics.hpp"
#include "tune/regression_compare.hpp"
#include "tune/run_verdict.hpp"

namespace commtune {

struct ComparedCase {
  std::string setting;
  Collective collective = Collective::AllReduce;
  std::uint64_t bytes = 0;
  Placement placement = Placement::OutOfPlace;
  Verdict verdict = Verdict::Same;
  double change = 0;                                      // current / baseline - 1
  std::optional<double> change_low, change_high;          // "change_interval", where both sides measured
  std::vector<double> baseline_runs_us, current_runs_us;  // the figures judged, one per run
  bool widened = false;                          // too few runs: judged with the default between-run noise
  std::optional<SampleStats> baseline, current;  // each side's first file's time_us, where measured
  std::string note;
};

// What compare decided at one case, in the report's shape.
ComparedCase compared_case_of(const CaseComparison& c);

nlohmann::json to_json(const ComparedCase& c);

// Throws InputError naming `where` and the field. Fields a report of an older commtune lacks
// (the runs, widened, the statistics) are left empty.
ComparedCase compared_case_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace commtune
