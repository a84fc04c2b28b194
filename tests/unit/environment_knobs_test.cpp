// knobs/environment_knobs: a knob the sweep's settings vary that the environment sets too is one
// warning naming the variable, its value and the settings that run with it.
#include <gtest/gtest.h>

#include "knobs/environment_knobs.hpp"

namespace commtune {
namespace {

std::vector<Setting> nccl_settings() {
  return {Setting{kDefaultSettingName, "", {}, {}}, Setting{"ring", "", {{"NCCL_ALGO", "Ring"}}, {}},
          Setting{"ll", "", {{"NCCL_PROTO", "LL"}}, {}},
          Setting{"tree-simple", "", {{"NCCL_ALGO", "Tree"}, {"NCCL_PROTO", "Simple"}}, {}}};
}

TEST(EnvironmentKnobs, EachVariedKnobTheEnvironmentSetsIsOneWarningNamingWhoRunsWithIt) {
  const auto notes =
      knobs_the_environment_sets(BackendKind::Nccl, nccl_settings(),
                                 {{"NCCL_ALGO", "Ring"}, {"NCCL_DEBUG", "INFO"}, {"NCCL_PROTO", "LL128"}});
  ASSERT_EQ(notes.size(), 2u);  // NCCL_DEBUG: no setting varies it
  EXPECT_EQ(notes[0].rfind("the environment sets NCCL_ALGO=Ring, ", 0), 0u) << notes[0];
  EXPECT_NE(notes[0].find("'default', 'll' run with it"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("not the library's own choice"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[1].rfind("the environment sets NCCL_PROTO=LL128, ", 0), 0u) << notes[1];
  EXPECT_NE(notes[1].find("'default', 'ring' run with it"), std::string::npos) << notes[1];
}

TEST(EnvironmentKnobs, NothingWhereEverySettingSetsItsOwnOrTheEnvironmentSetsNone) {
  const std::vector<Setting> all_set = {Setting{"ring", "", {{"NCCL_ALGO", "Ring"}}, {}},
                                        Setting{"tree", "", {{"NCCL_ALGO", "Tree"}}, {}}};
  EXPECT_TRUE(knobs_the_environment_sets(BackendKind::Nccl, all_set, {{"NCCL_ALGO", "Ring"}}).empty());
  EXPECT_TRUE(
      knobs_the_environment_sets(BackendKind::Nccl, nccl_settings(), {{"NCCL_DEBUG", "INFO"}}).empty());
  EXPECT_TRUE(knobs_the_environment_sets(BackendKind::Nccl, {}, {{"NCCL_ALGO", "Ring"}}).empty());
}

// Open MPI's knobs are control variables; the environment sets them as OMPI_MCA_<name>.
TEST(EnvironmentKnobs, OpenMpisKnobsAreReadFromTheirMcaVariables) {
  EXPECT_EQ(environment_variable_of(BackendKind::Mpi, "coll_tuned_allreduce_algorithm"),
            "OMPI_MCA_coll_tuned_allreduce_algorithm");
  EXPECT_EQ(environment_variable_of(BackendKind::Nccl, "NCCL_ALGO"), "NCCL_ALGO");
  const std::vector<Setting> mpi = {Setting{kDefaultSettingName, "", {}, {}},
                                    Setting{"ring", "", {{"coll_tuned_allreduce_algorithm", "ring"}}, {}}};
  const auto notes = knobs_the_environment_sets(
      BackendKind::Mpi, mpi,
      {{"OMPI_MCA_coll_tuned_allreduce_algorithm", "3"}, {"coll_tuned_allreduce_algorithm", "4"}});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("the environment sets OMPI_MCA_coll_tuned_allreduce_algorithm=3, ", 0), 0u)
      << notes[0];
  EXPECT_NE(notes[0].find("'default' runs with it"), std::string::npos) << notes[0];
}

}  // namespace
}  // namespace commtune
