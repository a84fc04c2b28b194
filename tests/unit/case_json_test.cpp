// The one JSON mapping of a case's fields, shared by the results file and the NCCL worker protocol.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "plan/case_json.hpp"
#include "results/results_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

Case sample_case() {
  Case c;
  c.index = 3;
  c.collective = Collective::ReduceScatter;
  c.bytes = 1 << 20;
  c.count = 65536;
  c.dtype = DataType::Float16;
  c.op = ReduceOp::Min;
  c.root = 1;
  c.placement = Placement::InPlace;
  return c;
}

std::string message_of(const json& j, const std::string& where) {
  try {
    case_fields_from_json(j, where);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CaseJson, FieldsRoundTripAndLeaveOtherFieldsAlone) {
  json j{{"setting", "ring"}};
  put_case_fields(j, sample_case());
  EXPECT_EQ(j.size(), 8u);
  EXPECT_EQ(j["setting"], "ring");
  EXPECT_EQ(j["collective"], std::string(name_of(Collective::ReduceScatter)));
  EXPECT_FALSE(j.contains("index"));
  const Case back = case_fields_from_json(j, "x");
  EXPECT_EQ(back.index, 0u);
  EXPECT_EQ(back.collective, Collective::ReduceScatter);
  EXPECT_EQ(back.bytes, 1u << 20);
  EXPECT_EQ(back.count, 65536u);
  EXPECT_EQ(back.dtype, DataType::Float16);
  EXPECT_EQ(back.op, ReduceOp::Min);
  EXPECT_EQ(back.root, 1);
  EXPECT_EQ(back.placement, Placement::InPlace);
}

TEST(CaseJson, MissingAndMistypedFieldsNameWhereAndWhich) {
  json j = json::object();
  put_case_fields(j, sample_case());
  json missing = j;
  missing.erase("count");
  EXPECT_EQ(message_of(missing, "r.json: cases[2]"), "r.json: cases[2]: missing field 'count'");
  json mistyped = j;
  mistyped["bytes"] = "1M";
  EXPECT_EQ(message_of(mistyped, "r.json: cases[2]"),
            "r.json: cases[2].bytes: expected an integer, got \"1M\"");
  json negative = j;
  negative["bytes"] = -8;
  EXPECT_EQ(message_of(negative, "r.json: cases[2]"),
            "r.json: cases[2].bytes: expected an integer from 1 to 1125899906842624, got -8");
  json fractional = j;
  fractional["count"] = 8.5;
  EXPECT_EQ(message_of(fractional, "r.json: cases[2]"),
            "r.json: cases[2].count: expected an integer, got 8.5");
  EXPECT_EQ(message_of(json::array(), "r.json: cases[0]"),
            "r.json: cases[0]: expected an object, got an empty list");
}

TEST(CaseJson, AResultsCaseCarriesTheSameFields) {
  CaseResult r;
  r.setting = "default";
  r.spec = sample_case();
  r.status = CaseStatus::Failed;
  r.reason = "setting not applied";
  json j = to_json(r);
  json expected = json::object();
  put_case_fields(expected, r.spec);
  for (const auto& item : expected.items()) EXPECT_EQ(j[item.key()], item.value()) << item.key();
  j.erase("placement");
  try {
    case_from_json(j, "r.json: cases[5]");
    ADD_FAILURE() << "no error for a case without placement";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "r.json: cases[5]: missing field 'placement'");
  }
}

}  // namespace
}  // namespace commtune
