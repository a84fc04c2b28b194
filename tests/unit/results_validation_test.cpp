#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/results_document.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

CaseResult measured(const std::string& setting, std::uint64_t bytes, Placement placement) {
  Case spec;
  spec.collective = Collective::AllReduce;
  spec.bytes = bytes;
  spec.count = bytes / 4;
  spec.root = -1;
  spec.placement = placement;
  return measured_case(spec, setting, 4, {10e-6, 11e-6, 12e-6, 13e-6, 14e-6}, 12e-6, 0);
}

// A small valid results file: two settings, 1 KiB, both placements.
json valid_results() {
  json doc{{"schema_version", 1},
           {"backend", "mpi"},
           {"provenance",
            {{"tool", "commtune"},
             {"start_time", "2026-01-01T00:00:00Z"},
             {"layout", {{"nranks", 4}, {"nhosts", 1}}}}},
           {"sweep", json::object()},
           {"settings", json::array()},
           {"warnings", json::array()},
           {"cases", json::array()},
           {"complete", true}};
  doc["settings"].push_back(to_json(Setting{"default", "nothing forced", {}, {}}));
  doc["settings"].push_back(
      to_json(Setting{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {Collective::AllReduce}}));
  for (const char* setting : {"default", "ring"})
    for (Placement p : {Placement::OutOfPlace, Placement::InPlace})
      doc["cases"].push_back(to_json(measured(setting, 1024, p)));
  return doc;
}

std::string message_of(const json& doc) {
  try {
    results_from_json(doc, "r.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ResultsValidation, AValidFileReadsAndUnknownOptionalFieldsAreLeftAlone) {
  json doc = valid_results();
  doc["cases"][0]["a_future_figure_us"] = 9.5;
  doc["provenance"]["something_new"] = {{"a", 1}};
  EXPECT_EQ(results_from_json(doc, "r.json").cases.size(), 4u);
}

TEST(ResultsValidation, TimesMustBePositiveAndPlausible) {
  json doc = valid_results();
  doc["cases"][3]["time_us"]["median"] = -5.0;
  EXPECT_EQ(message_of(doc), "r.json: cases[3].time_us.median: must be > 0, got -5.0");
  doc["cases"][3]["time_us"]["median"] = 0;
  EXPECT_EQ(message_of(doc), "r.json: cases[3].time_us.median: must be > 0, got 0");
  doc["cases"][3]["time_us"]["median"] = 1e300;
  EXPECT_EQ(message_of(doc), "r.json: cases[3].time_us.median: 1e+300 us is not a plausible time");
}

TEST(ResultsValidation, QuantilesAndIntervalsMustBeInOrder) {
  json doc = valid_results();
  std::swap(doc["cases"][1]["time_us"]["ci_low"], doc["cases"][1]["time_us"]["ci_high"]);
  EXPECT_EQ(message_of(doc),
            "r.json: cases[1].time_us: ci_low is above ci_high (an inverted confidence interval)");
  doc = valid_results();
  doc["cases"][1]["time_us"]["p5"] = 13.5;
  EXPECT_EQ(message_of(doc), "r.json: cases[1].time_us: p5 is above median");
}

TEST(ResultsValidation, ByteCountsAreWholePositiveElements) {
  json doc = valid_results();
  doc["cases"][0]["bytes"] = -8;
  EXPECT_EQ(message_of(doc),
            "r.json: cases[0].bytes: expected an integer from 1 to 1125899906842624, got -8");
  doc["cases"][0]["bytes"] = 1024.5;
  EXPECT_EQ(message_of(doc), "r.json: cases[0].bytes: expected an integer, got 1024.5");
  doc["cases"][0]["bytes"] = 1026;
  EXPECT_EQ(
      message_of(doc),
      "r.json: cases[0].bytes: 1026 is not a whole number of float elements per rank (a multiple of 4)");
}

TEST(ResultsValidation, CasesNameListedSettingsOnceWithOneRankCount) {
  json doc = valid_results();
  doc["cases"][2]["setting"] = "warp";
  EXPECT_EQ(message_of(doc), "r.json: cases[2].setting: 'warp' is not one of the file's settings");
  doc = valid_results();
  doc["cases"][2] = doc["cases"][0];
  EXPECT_EQ(message_of(doc), "r.json: cases[2]: the same case as cases[0]");
  doc = valid_results();
  doc["cases"][1]["nranks"] = 0;
  EXPECT_EQ(message_of(doc), "r.json: cases[1].nranks: expected an integer from 1 to 16777216, got 0");
}

TEST(ResultsValidation, TheHeaderIsChecked) {
  json doc = valid_results();
  doc.erase("provenance");
  EXPECT_EQ(message_of(doc), "r.json: missing field 'provenance'");
  doc = valid_results();
  doc.erase("backend");
  EXPECT_EQ(message_of(doc), "r.json: missing field 'backend'");
  doc = valid_results();
  doc["backend"] = "tpu";
  EXPECT_TRUE(message_of(doc).starts_with("r.json: backend: "));
  EXPECT_NE(message_of(doc).find("'tpu'"), std::string::npos);
  doc = valid_results();
  doc["schema_version"] = "1";
  EXPECT_EQ(message_of(doc), "r.json: schema_version: expected the integer 1, got \"1\"");
}

TEST(ResultsValidation, ToolsNeedCasesAndACompleteSweepUnlessAllowed) {
  ResultsDocument doc = results_from_json(valid_results(), "r.json");
  EXPECT_NO_THROW(require_usable_results(doc, "r.json", false));
  doc.complete = false;
  EXPECT_THROW(require_usable_results(doc, "r.json", false), InputError);
  EXPECT_NO_THROW(require_usable_results(doc, "r.json", true));
  doc.cases.clear();
  EXPECT_THROW(require_usable_results(doc, "r.json", true), InputError);
}

}  // namespace
}  // namespace commtune
