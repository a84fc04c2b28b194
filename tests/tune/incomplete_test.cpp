// An interrupted sweep ("complete": false), tuned, exported or compared with --allow-incomplete:
// the summary, every export's notes and the compare report say so.
#include <gtest/gtest.h>

#include <sstream>

#include "writers/compare_writers.hpp"
#include "writers/tune_summary_writer.hpp"
#include "tune/export_plan.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/regression_compare.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;
using testing::synthetic_document;

ResultsDocument interrupted() {
  ResultsDocument doc = synthetic_document(
      "mpi", {Setting{"default", "", {}, {}}},
      {synthetic_case("default", Collective::AllReduce, 1024, Placement::OutOfPlace, {10, 11, 12, 13, 14})});
  doc.complete = false;
  return doc;
}

bool has_note(const std::vector<std::string>& notes) {
  for (const auto& n : notes)
    if (n.find("interrupted sweep") != std::string::npos) return true;
  return false;
}

TEST(Incomplete, TheRecommendationSaysItAndKeepsItThroughItsFile) {
  const Recommendation rec = tune(interrupted(), TuneOptions{});
  EXPECT_TRUE(rec.incomplete);
  EXPECT_TRUE(has_note(rec.notes));
  std::ostringstream summary;
  write_tune_summary(rec, summary);
  EXPECT_NE(summary.str().find("# note: tuned from an interrupted sweep"), std::string::npos)
      << summary.str();
  const Recommendation back = recommendation_from_json(to_json(rec), "rec.json");
  EXPECT_TRUE(back.incomplete);
  EXPECT_TRUE(has_note(make_export_plan(back).notes));
}

TEST(Incomplete, ACompleteSweepCarriesNoNote) {
  ResultsDocument doc = interrupted();
  doc.complete = true;
  const Recommendation rec = tune(doc, TuneOptions{});
  EXPECT_FALSE(rec.incomplete);
  EXPECT_FALSE(to_json(rec).contains("incomplete"));
  EXPECT_FALSE(has_note(make_export_plan(rec).notes));
}

TEST(Incomplete, TheCompareReportSaysWhichSide) {
  ResultsDocument complete = interrupted();
  complete.complete = true;
  const CompareReport report = compare_results(complete, interrupted(), CompareOptions{0.05});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].rfind("current from an interrupted sweep", 0), 0u);
  std::ostringstream markdown, json;
  write_compare_markdown(report, markdown);
  write_compare_json(report, json);
  EXPECT_NE(markdown.str().find("Note: current from an interrupted sweep"), std::string::npos);
  EXPECT_NE(json.str().find("\"notes\""), std::string::npos);
}

}  // namespace
}  // namespace commtune
