// nccl-tests' own JSON (-J, version 3) as compare reads it: the cases, the layout and provenance,
// the cycles of -N as runs, the per-iteration report, the checks; and compare of an nccl-tests
// history against a commtune run on nccl-tests' definition of time.
#include <gtest/gtest.h>

#include <sstream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "writers/compare_writers.hpp"
#include "results/nccl_tests_json.hpp"
#include "results/results_input.hpp"
#include "tune/nccl_tests_settings.hpp"
#include "tune/regression_compare.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"
#include "unit/golden.hpp"

namespace commtune {
namespace {

using testing::source_path;

ResultsDocument fixture(const std::string& name) {
  return load_any_results(source_path("tests/fixtures/" + name));
}

TEST(NcclTestsJson, ReadsCasesLayoutAndProvenance) {
  const ResultsDocument doc = fixture("nccl-tests-v3-all_reduce_perf.json");
  EXPECT_TRUE(from_nccl_tests(doc));
  EXPECT_EQ(doc.backend, BackendKind::Nccl);
  ASSERT_EQ(doc.cases.size(), 12u);  // 6 sizes x 2 placements
  const CaseResult& first = doc.cases.front();
  EXPECT_EQ(first.spec.collective, Collective::AllReduce);
  EXPECT_EQ(first.spec.bytes, 1024u);
  EXPECT_EQ(first.nranks, 8);  // 2 processes x 4 GPUs
  EXPECT_EQ(first.spec.root, -1);
  ASSERT_TRUE(first.nccl_tests);
  EXPECT_DOUBLE_EQ(first.nccl_tests->time_us, 18.2);
  EXPECT_EQ(first.wrong, 0);
  EXPECT_TRUE(first.run_nccl_tests_us.empty());
  EXPECT_EQ(doc.provenance["nccl"]["version"], "2.19.3");
  EXPECT_EQ(doc.provenance["environment"]["NCCL_IB_HCA"], "mlx5");
  EXPECT_FALSE(doc.provenance["environment"].contains("HOME"));
  EXPECT_EQ(doc.provenance["layout"]["nhosts"], 2);
  // -I 1: the per-iteration times behind 64 KiB's figure.
  EXPECT_EQ(doc.cases[6].spec.bytes, 65536u);
  EXPECT_EQ(doc.cases[6].time_us.count, 4u);
}

TEST(NcclTestsJson, CyclesAreRuns) {
  const ResultsDocument doc = fixture("nccl-tests-v3-all_reduce_perf-N3.json");
  ASSERT_EQ(doc.cases.size(), 12u);
  const CaseResult& c = doc.cases.back();
  EXPECT_EQ(c.spec.bytes, 1048576u);
  EXPECT_EQ(c.spec.placement, Placement::InPlace);
  ASSERT_EQ(c.run_nccl_tests_us.size(), 3u);
  EXPECT_NEAR(c.run_nccl_tests_us[1], 240.6 * 1.01 * 1.03, 1e-5);
}

nlohmann::json base_json() {
  return read_json_file(source_path("tests/fixtures/nccl-tests-v3-all_reduce_perf.json"));
}

std::string refusal(const nlohmann::json& j) {
  try {
    nccl_tests_from_json(j, "nt.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NcclTestsJson, RefusesWhatItCannotRead) {
  nlohmann::json j = base_json();
  j["version"] = 2;
  EXPECT_NE(refusal(j).find("nt.json: version: nccl-tests JSON version 2 is not supported"),
            std::string::npos);
  j = base_json();
  j["args"][0] = "./build/sendrecv_perf";
  EXPECT_NE(refusal(j).find("sendrecv_perf"), std::string::npos);
  j = base_json();
  j["results"][1]["count"] = 3;
  EXPECT_NE(refusal(j).find("nt.json: results[1]: size 4096 and count 3"), std::string::npos);
  j = base_json();
  j["results"][0]["out_of_place"]["time"] = "nan";
  EXPECT_EQ(refusal(j), "");  // a NaN time is a failed case, not bad input
  EXPECT_EQ(nccl_tests_from_json(j, "nt.json").cases[0].status, CaseStatus::Failed);
}

TEST(NcclTestsJson, ComparesWithACommtuneRunOnNcclTestsTime) {
  const ResultsDocument history = fixture("nccl-tests-v3-all_reduce_perf-N3.json");
  const ResultsDocument run = fixture("nccl-results-8ranks-repeat3.json");
  const CompareReport report = compare_results(history, run, CompareOptions{0.05});
  EXPECT_EQ(report.basis, TimeBasis::NcclTests);
  EXPECT_EQ(report.baseline_runs, 3u);
  EXPECT_EQ(report.current_runs, 3u);
  EXPECT_EQ(report.count(Verdict::Slower), 4u);  // 256 KiB and 1 MiB, both placements, +40%
  ASSERT_EQ(report.slower_ranges.size(), 1u);
  EXPECT_EQ(report.slower_ranges[0].first_bytes, 262144u);
  EXPECT_EQ(report.slower_ranges[0].last_bytes, 1048576u);
  EXPECT_EQ(report.count(Verdict::Same), 8u);
  EXPECT_NEAR(report.worst_slower()->change, 0.4, 0.03);
  std::ostringstream md, js;
  write_compare_markdown(report, md);
  write_compare_json(report, js);
  testing::expect_golden("tune/compare-nccl-tests.md", md.str());
  testing::expect_golden("tune/compare-nccl-tests.json", js.str());
}

TEST(NcclTestsJson, ASingleRunHistoryIsWidened) {
  const CompareReport report =
      compare_results(fixture("nccl-tests-v3-all_reduce_perf.json"),
                      fixture("nccl-results-8ranks-repeat3.json"), CompareOptions{0.05});
  EXPECT_EQ(report.baseline_runs, 1u);
  EXPECT_TRUE(report.any_widened());
  EXPECT_EQ(report.count(Verdict::Slower), 4u);  // +40% clears 25% noise and the threshold
  const CompareReport strict =
      compare_results(fixture("nccl-tests-v3-all_reduce_perf.json"),
                      fixture("nccl-results-8ranks-repeat3.json"), CompareOptions{0.05, 0.5});
  EXPECT_EQ(strict.count(Verdict::Slower), 0u);  // inside a 50% noise: AMBIGUOUS
  EXPECT_EQ(strict.count(Verdict::Ambiguous), 4u);
}

// An nccl-tests history of one setting per run: the -N3 fixture as run under its environment, and
// again with NCCL_ALGO=Tree added and times scaled (Tree 30% slower below 64 KiB, 30% faster
// from there).
nlohmann::json history_file(const std::vector<std::string>& more_env, double small_factor,
                            double large_factor) {
  nlohmann::json j = read_json_file(source_path("tests/fixtures/nccl-tests-v3-all_reduce_perf-N3.json"));
  for (const auto& e : more_env) j["env"].push_back(e);
  for (auto& r : j["results"]) {
    const double f = r["size"].get<std::uint64_t>() >= 65536 ? large_factor : small_factor;
    for (const char* half : {"out_of_place", "in_place"})
      if (r[half].is_object()) r[half]["time"] = r[half]["time"].get<double>() * f;
  }
  return j;
}

NcclTestsSweep history(const std::vector<nlohmann::json>& files) {
  std::vector<ResultsDocument> docs;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < files.size(); ++i) {
    names.push_back("h" + std::to_string(i) + ".json");
    docs.push_back(nccl_tests_from_json(files[i], names.back()));
  }
  return nccl_tests_sweep(docs, names);
}

TEST(NcclTestsTune, EachSetOfForcedKnobsIsASettingAndTheSitesCommonKnobsAreNone) {
  // Both files carry NCCL_IB_HCA=mlx5 (the site's) and NCCL_DEBUG=WARN (diagnostics): neither is a setting.
  const NcclTestsSweep sweep = history({history_file({}, 1, 1), history_file({"NCCL_ALGO=Tree"}, 1.3, 0.7)});
  ASSERT_EQ(sweep.document.settings.size(), 2u);
  EXPECT_EQ(sweep.document.settings[0].name, "default");
  EXPECT_TRUE(sweep.document.settings[0].knobs.empty());
  EXPECT_EQ(sweep.document.settings[1].name, "algo:Tree");
  EXPECT_EQ(sweep.document.settings[1].knobs, (std::map<std::string, std::string>{{"NCCL_ALGO", "Tree"}}));
  ASSERT_EQ(sweep.document.cases.size(), 2u * 12u);
  for (const auto& c : sweep.document.cases)
    EXPECT_EQ(c.run_medians_us.size(), 3u) << c.setting << " " << c.spec.bytes;  // -N 3
  EXPECT_TRUE(sweep.notes.empty());
  const Recommendation rec = tune(sweep.document, TuneOptions{});
  int tree = 0, stays = 0;
  for (const auto& choice : rec.sizes) {
    if (choice.winner == "algo:Tree") {
      ++tree;
      EXPECT_GE(choice.bytes, 65536u);
    } else {
      ++stays;
      EXPECT_LT(choice.bytes, 65536u);
    }
  }
  EXPECT_EQ(tree, 3);
  EXPECT_EQ(stays, 3);
}

TEST(NcclTestsTune, FilesOfOneSettingAreItsLaunches) {
  const NcclTestsSweep sweep = history({history_file({}, 1, 1), history_file({"NCCL_ALGO=Tree"}, 1.3, 0.7),
                                        history_file({"NCCL_ALGO=Tree"}, 1.3, 0.72)});
  ASSERT_EQ(sweep.document.settings.size(), 2u);
  for (const auto& c : sweep.document.cases)
    EXPECT_EQ(c.run_medians_us.size(), c.setting == "default" ? 3u : 6u);
}

TEST(NcclTestsTune, WithoutADefaultRunOrWithOneSettingThereIsNothingToJudge) {
  try {
    history({history_file({"NCCL_ALGO=Ring"}, 1, 1), history_file({"NCCL_ALGO=Tree"}, 1, 1)});
    FAIL() << "no default";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the default (none forced) is the baseline"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(history({history_file({"NCCL_ALGO=Tree"}, 1, 1), history_file({"NCCL_ALGO=Tree"}, 1, 1)}),
               InputError);
}

TEST(NcclTestsTune, AKnobValueCommtuneRefusesNamesTheFileAndOtherVariablesAreNoted) {
  try {
    history({history_file({}, 1, 1), history_file({"NCCL_PROTO=Fast"}, 1, 1)});
    FAIL() << "NCCL_PROTO=Fast accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("h1.json: env NCCL_PROTO"), std::string::npos) << e.what();
  }
  const NcclTestsSweep sweep =
      history({history_file({"NCCL_SOMETHING_NEW=1"}, 1, 1), history_file({"NCCL_PROTO=LL"}, 1, 1)});
  ASSERT_EQ(sweep.notes.size(), 1u);
  EXPECT_NE(sweep.notes[0].find("NCCL_SOMETHING_NEW differs between the files"), std::string::npos)
      << sweep.notes[0];
  EXPECT_EQ(setting_name_of({{"NCCL_ALGO", "^NVLS,CollNet"}, {"NCCL_PROTO", "LL128"}}),
            "algo:.NVLS.CollNet+proto:LL128");
}

}  // namespace
}  // namespace commtune
