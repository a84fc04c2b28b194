// What NCCL chose, from the default's cases to the recommendation (per size, read back validated)
// and the tune summary; unrecorded choices become one note per reason.
#include <gtest/gtest.h>

#include <sstream>

#include "writers/tune_summary_writer.hpp"
#include "tune/recommendation_json.hpp"
#include "tune/tuner.hpp"
#include "tune_test_support.hpp"

namespace commtune {
namespace {

using testing::synthetic_case;

ResultsDocument document_with_choices() {
  const std::vector<double> slow{10, 10.1, 10.2, 10.1, 10, 10.1, 10.2, 10.1, 10, 10.1};
  const std::vector<double> fast{5, 5.1, 5.2, 5.1, 5, 5.1, 5.2, 5.1, 5, 5.1};
  std::vector<CaseResult> cases{
      synthetic_case("default", Collective::AllReduce, 4096, Placement::OutOfPlace, slow),
      synthetic_case("ring", Collective::AllReduce, 4096, Placement::OutOfPlace, fast),
      synthetic_case("default", Collective::AllReduce, 65536, Placement::OutOfPlace, slow),
      synthetic_case("ring", Collective::AllReduce, 65536, Placement::OutOfPlace, slow),
      synthetic_case("default", Collective::AllReduce, 1048576, Placement::OutOfPlace, slow)};
  cases[0].nccl_choice = recorded_choice("tree", "ll");
  cases[2].nccl_choice = recorded_choice("ring", "ll128");
  cases[4].nccl_choice = unrecorded_choice("the record of commtune's tuner plugin is empty");
  return testing::synthetic_document(
      "nccl", {Setting{"default", "", {}, {}}, Setting{"ring", "", {{"NCCL_ALGO", "Ring"}}, {}}}, cases);
}

TEST(NcclChoiceTune, TheSummarySaysWhatNcclChoseBesideTheWinner) {
  const Recommendation rec = tune(document_with_choices(), TuneOptions{});
  ASSERT_EQ(rec.sizes.size(), 3u);
  EXPECT_EQ(rec.sizes[0].winner, "ring");
  EXPECT_EQ(rec.sizes[0].nccl_chose, recorded_choice("tree", "ll"));
  EXPECT_EQ(rec.sizes[1].nccl_chose, recorded_choice("ring", "ll128"));
  EXPECT_FALSE(rec.sizes[2].nccl_chose);  // not recorded: a note instead
  std::ostringstream out;
  write_tune_summary(rec, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("NCCL by itself chose TREE/LL here, the winner forces NCCL_ALGO=Ring\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("default stays: " + rec.sizes[1].reason + "; NCCL by itself chose RING/LL128 here\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("# note: NCCL's own choice not recorded (the record of commtune's tuner plugin is empty)\n"),
      std::string::npos)
      << text;
}

TEST(NcclChoiceTune, TheRecommendationKeepsItThroughItsJson) {
  const Recommendation rec = tune(document_with_choices(), TuneOptions{});
  const Recommendation back = recommendation_from_json(to_json(rec), "rec.json");
  ASSERT_EQ(back.sizes.size(), rec.sizes.size());
  for (std::size_t i = 0; i < rec.sizes.size(); ++i)
    EXPECT_EQ(back.sizes[i].nccl_chose, rec.sizes[i].nccl_chose) << i;
  nlohmann::json bad = to_json(rec);
  bad["sizes"][0]["nccl_chose"]["protocol"] = "LL";
  EXPECT_THROW(recommendation_from_json(bad, "rec.json"), InputError);
}

}  // namespace
}  // namespace commtune
