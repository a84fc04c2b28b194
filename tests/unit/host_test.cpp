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
  const Launcher l = detect_launcher(
      {{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
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

TEST(Launcher, NamesTheLauncherAndRecordsTheSlurmJob) {
  const Launcher none = detect_launcher({{"HOME", "/root"}});
  EXPECT_EQ(none.name, "none");
  EXPECT_FALSE(none.slurm.has_value());
  // srun --mpi=pmix: PMIx and Slurm's step, no OMPI_COMM_WORLD_* (Open MPI's direct launch).
  const Launcher srun = detect_launcher({{"PMIX_RANK", "3"},
                                         {"SLURM_STEP_ID", "0"},
                                         {"SLURM_JOB_ID", "17"},
                                         {"SLURM_JOB_NODELIST", "n[1-4]"},
                                         {"SLURM_JOB_NUM_NODES", "4"},
                                         {"SLURM_STEP_NODELIST", "n[1-4]"},
                                         {"SLURM_STEP_NUM_TASKS", "8"},
                                         {"SLURM_STEP_TASKS_PER_NODE", "2(x4)"},
                                         {"SLURM_PROCID", "3"},
                                         {"SLURM_LOCALID", "1"}});
  EXPECT_EQ(srun.name, "srun");
  ASSERT_TRUE(srun.slurm.has_value());
  EXPECT_EQ(srun.slurm->job_id, "17");
  EXPECT_EQ(srun.slurm->nodelist, "n[1-4]");
  EXPECT_EQ(srun.slurm->nnodes, 4);
  EXPECT_EQ(srun.slurm->step_id, "0");
  EXPECT_EQ(srun.slurm->ntasks, 8);
  EXPECT_EQ(srun.slurm->tasks_per_node, "2(x4)");
  EXPECT_EQ(srun.local_rank, 1);
  // salloc ... mpirun: the ranks are Open MPI's; the step variables are mpirun's daemons', not kept.
  const Launcher salloc = detect_launcher({{"OMPI_COMM_WORLD_SIZE", "8"},
                                           {"OMPI_COMM_WORLD_RANK", "5"},
                                           {"PMIX_RANK", "5"},
                                           {"SLURM_STEP_ID", "0"},
                                           {"SLURM_PROCID", "2"},
                                           {"SLURM_JOB_ID", "18"},
                                           {"SLURM_STEP_TASKS_PER_NODE", "1(x4)"}});
  EXPECT_EQ(salloc.name, "mpirun");
  EXPECT_EQ(salloc.rank, 5);
  ASSERT_TRUE(salloc.slurm.has_value());
  EXPECT_EQ(salloc.slurm->job_id, "18");
  EXPECT_TRUE(salloc.slurm->tasks_per_node.empty());
  EXPECT_TRUE(salloc.slurm->step_id.empty());
  // Another PMI launcher outside Slurm.
  EXPECT_EQ(detect_launcher({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}}).name, "pmi");
}

TEST(Launcher, GarbageRanksAreIgnored) {
  const Launcher l = detect_launcher({{"PMI_RANK", "x1"}, {"SLURM_PROCID", "-3"}});
  EXPECT_TRUE(l.mpi);
  EXPECT_FALSE(l.rank.has_value());
}

TEST(ProgramOutput, RunsByArgvWithoutAShell) {
  EXPECT_EQ(program_output({"echo", "a;b", "$HOME"}, std::chrono::seconds(5)),
            std::optional<std::string>("a;b $HOME\n"));
  EXPECT_FALSE(program_output({"false"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"no-such-program-commtune"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"sleep", "5"}, std::chrono::milliseconds(200)).has_value());
}

}  // namespace
}  // namespace commtune
