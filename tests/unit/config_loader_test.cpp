#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "plan/config_loader.hpp"
#include "plan/plan.hpp"

#include <algorithm>

namespace commtune {
namespace {

using nlohmann::json;

TEST(ConfigLoader, ReadsSweepParametersAndSettings) {
  const json doc = json::parse(R"({
    "name": "t", "backend": "mpi",
    "sweep": {"min_bytes": "1K", "max_bytes": "4M", "factor": 4, "collectives": ["allreduce", "bcast"],
              "dtype": "double", "op": "max", "iterations": 7, "warmup": 2, "check": false, "placements": ["in-place"]},
    "settings": [{"name": "ring", "knobs": {"coll_tuned_allreduce_algorithm": 4}, "collectives": ["allreduce"]}]
  })");
  const SweepConfig c = parse_config(doc, "test");
  EXPECT_EQ(c.options.backend, BackendKind::Mpi);
  EXPECT_EQ(c.options.sizes.min_bytes, 1024u);
  EXPECT_EQ(c.options.sizes.max_bytes, 4u << 20);
  EXPECT_EQ(c.options.collectives, (std::vector<Collective>{Collective::AllReduce, Collective::Broadcast}));
  EXPECT_EQ(c.options.dtype, DataType::Float64);
  EXPECT_EQ(c.options.op, ReduceOp::Max);
  EXPECT_EQ(c.options.stopping.fixed_iterations, 7u);
  EXPECT_EQ(c.options.stopping.warmup_iterations, 2u);
  EXPECT_FALSE(c.options.check);
  EXPECT_EQ(c.options.placements, std::vector<Placement>{Placement::InPlace});
  ASSERT_EQ(c.settings.size(), 1u);
  EXPECT_EQ(c.settings[0].knobs.at("coll_tuned_allreduce_algorithm"), "4");
}

TEST(ConfigLoader, UnknownKeysAreErrorsNamingTheKey) {
  try {
    parse_config(json::parse(R"({"sweep": {"max_byte": "4M"}})"), "cfg.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("max_byte"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("cfg.json"), std::string::npos);
  }
  EXPECT_THROW(parse_config(json::parse(R"({"settings": [{"name": "x", "knob": {}}]})"), "c"), InputError);
}

TEST(ConfigLoader, BadValuesAreInputErrors) {
  EXPECT_THROW(parse_config(json::parse(R"({"sweep": {"dtype": "float128"}})"), "c"), InputError);
  EXPECT_THROW(parse_config(json::parse(R"({"sweep": {"min_bytes": "8Q"}})"), "c"), InputError);
  EXPECT_THROW(parse_config(json::parse(R"({"sweep": {"iterations": -3}})"), "c"), InputError);
  EXPECT_THROW(parse_config(json::parse(R"({"settings": [{"name": "a"}, {"name": "a"}]})"), "c"), InputError);
  EXPECT_THROW(parse_config(json::parse(R"({"settings": [{"name": "bad name"}]})"), "c"), InputError);
  EXPECT_THROW(parse_config(json::parse(R"([1, 2])"), "c"), InputError);
}

std::string message_of(const char* text) {
  try {
    parse_config(json::parse(text), "c.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ConfigLoader, RangesAndTypesNameTheJsonPath) {
  EXPECT_EQ(message_of(R"({"sweep": {"iterations": 4000000000}})"),
            "c.json: sweep.iterations: expected an integer from 1 to 1000000, got 4000000000");
  EXPECT_EQ(message_of(R"({"sweep": {"warmup": -1}})"),
            "c.json: sweep.warmup: expected an integer from 0 to 100000, got -1");
  EXPECT_EQ(message_of(R"({"sweep": null})"), "c.json: sweep: expected an object, got null");
  EXPECT_EQ(message_of(R"({"sweep": {"max_bytes": "1T"}})"),
            "c.json: sweep.max_bytes: bad size '1T': unknown suffix 'T' (K, M or G: binary)");
  EXPECT_EQ(message_of(R"({"sweep": {"collectives": ["allreduce", "all_reduce"]}})"),
            "c.json: sweep.collectives[1]: 'all_reduce' is listed twice");
  EXPECT_EQ(message_of(R"({"sweep": {"factor": 2, "step_bytes": 8}})"),
            "c.json: sweep: give factor or step_bytes, not both");
  EXPECT_TRUE(message_of(R"({"backend": "tpu"})").starts_with("c.json: backend: "));  // the path,
  EXPECT_NE(message_of(R"({"backend": "tpu"})").find("'tpu'"), std::string::npos);    // the value
  EXPECT_EQ(message_of(R"({"settings": [{"name": "x", "knobs": {"K": true}}]})"),
            "c.json: settings[0].knobs.K: expected a string or number, got true");
}

TEST(ConfigLoader, AValueIsQuotedShortly) {
  EXPECT_EQ(message_of(R"({"sweep": {"dtype": [1, 2, 3]}})"),
            "c.json: sweep.dtype: expected a string, got a list");
  const std::string text = R"({"sweep": {"dtype": ")" + std::string(5000, 'x') + "\"}}";
  const std::string message = message_of(text.c_str());
  EXPECT_EQ(message.rfind("c.json: sweep.dtype: unknown data type 'xxx", 0), 0u) << message;
  EXPECT_LT(message.size(), 300u);
}

// A preset narrowed with --collectives: the settings for other collectives are left out (and
// named), not refused; one named with --setting that cannot run is still an error.
TEST(ConfigLoader, APresetNarrowedByCollectivesLeavesOtherSettingsOut) {
  const auto config = [] {
    return parse_config(json::parse(R"({"sweep": {"collectives": ["allreduce"]},
      "settings": [{"name": "ag", "knobs": {"K": 1}, "collectives": ["allgather"]},
                   {"name": "ar", "knobs": {"K": 2}, "collectives": ["allreduce", "allgather"]},
                   {"name": "any", "knobs": {"K": 3}}]})"),
                        "c.json");
  };
  SweepConfig c = config();
  ASSERT_NO_THROW(check_settings_apply(c));
  std::vector<std::string> names;
  for (const Setting& s : c.settings) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ar", "any"}));
  EXPECT_EQ(c.options.left_out_settings, (std::vector<std::string>{"ag"}));
  const Plan plan = make_plan(c.options, c.settings, PlanLimits{4, 4, 0});
  EXPECT_EQ(std::count_if(plan.warnings.begin(), plan.warnings.end(),
                          [](const std::string& w) { return w.find("ag") != std::string::npos; }),
            1);

  SweepConfig named = config();
  named.options.only_settings = {"ag"};
  EXPECT_THROW(check_settings_apply(named), InputError);
  SweepConfig wider = config();
  wider.options.collectives.push_back(Collective::AllGather);
  ASSERT_NO_THROW(check_settings_apply(wider));
  EXPECT_EQ(wider.settings.size(), 3u);
  EXPECT_TRUE(wider.options.left_out_settings.empty());
}

TEST(ConfigLoader, MissingOrBrokenFilesAreInputErrors) {
  EXPECT_THROW(load_config_file("/nonexistent/config.json"), InputError);
  const std::string path = ::testing::TempDir() + "/broken.json";
  std::ofstream(path) << "{ \"sweep\": ";
  EXPECT_THROW(load_config_file(path), InputError);
}

TEST(SelectSettings, PutsADefaultFirstAndFilters) {
  const std::vector<Setting> configured{Setting{"a", "", {{"K", "1"}}, {}},
                                        Setting{"b", "", {{"K", "2"}}, {}}};
  const auto all = select_settings(configured, {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "default");
  EXPECT_TRUE(all[0].is_default());
  const auto only_b = select_settings(configured, {"b"});
  ASSERT_EQ(only_b.size(), 1u);
  EXPECT_EQ(only_b[0].name, "b");
  EXPECT_THROW(select_settings(configured, {"c"}), InputError);
}

TEST(SelectSettings, TheDefaultSettingMustForceNothing) {
  EXPECT_THROW(select_settings({Setting{"default", "", {{"K", "1"}}, {}}}, {}), InputError);
  EXPECT_EQ(select_settings({Setting{"default", "mine", {}, {}}}, {}).size(), 1u);
}

// Every preset shipped in configs/ must parse.
TEST(ConfigLoader, EveryShippedPresetParses) {
  int seen = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(COMMTUNE_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(load_config_file(entry.path().string())) << entry.path();
    ++seen;
  }
  EXPECT_GE(seen, 2);
}

}  // namespace
}  // namespace commtune
