// Host facts: the launcher read from its variables, and starting programs by argv.
#include <gtest/gtest.h>

#include "host/launcher.hpp"
#include "host/program_output.hpp"

namespace commtune {
namespace {

TEST(Launcher, NoLauncherVariablesMeansAlone) {
  const Launcher alone = detect_launcher({{"HOME", "/root"}});
  EXPECT_FALSE(alone.mpi);
  EXPECT_FALSE(alone.rank.has_value());
  EXPECT_TRUE(alone.first_rank());
}

TEST(Launcher, OpenMpiRanksAreRead) {
  const Launcher l = detect_launcher({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"},
                                      {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
  EXPECT_TRUE(l.mpi);
  EXPECT_EQ(l.rank, 3);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_FALSE(l.first_rank());
}

TEST(Launcher, SrunWithPmixIsAnMpiLaunchButSlurmAloneIsNot) {
  const Launcher pmix = detect_launcher({{"PMIX_RANK", "0"}, {"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}});
  EXPECT_TRUE(pmix.mpi);
  EXPECT_TRUE(pmix.first_rank());
  // An sbatch script (or srun --mpi=none) sets Slurm's numbering only: no MPI job to join.
  const Launcher slurm = detect_launcher({{"SLURM_PROCID", "2"}, {"SLURM_LOCALID", "0"}});
  EXPECT_FALSE(slurm.mpi);
  EXPECT_EQ(slurm.rank, 2);
  EXPECT_EQ(slurm.local_rank, 0);
}

TEST(Launcher, GarbageRanksAreIgnored) {
  const Launcher l = detect_launcher({{"PMI_RANK", "x1"}, {"SLURM_PROCID", "-3"}});
  EXPECT_TRUE(l.mpi);
  EXPECT_FALSE(l.rank.has_value());
}

TEST(ProgramOutput, RunsByArgvWithoutAShell) {
  EXPECT_EQ(program_output({"echo", "a;b", "$HOME"}, std::chrono::seconds(5)), std::optional<std::string>("a;b $HOME\n"));
  EXPECT_FALSE(program_output({"false"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"no-such-program-commtune"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"sleep", "5"}, std::chrono::milliseconds(200)).has_value());
}

}  // namespace
}  // namespace commtune
