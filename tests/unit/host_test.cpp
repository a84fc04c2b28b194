// Host facts: the launcher read from its variables, starting programs by argv, and the memory the
// copy ceiling is measured in.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "host/host_facts.hpp"
#include "host/launcher.hpp"
#include "host/memory_bandwidth.hpp"
#include "host/prefaulted_memory.hpp"
#include "host/program_output.hpp"
#include "launch/launcher_check.hpp"

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

// torchrun's workers: its RANK numbers them where no MPI launcher does, so that only RANK 0 prints
// the refusal (launch/launcher_check); under mpirun the MPI ranks stay commtune's.
TEST(Launcher, TorchrunIsRecordedAndRefusedWithMoreThanOneProcess) {
  const Launcher torch = detect_launcher({{"TORCHELASTIC_RUN_ID", "job7"},
                                          {"WORLD_SIZE", "16"},
                                          {"LOCAL_WORLD_SIZE", "8"},
                                          {"RANK", "9"},
                                          {"LOCAL_RANK", "1"},
                                          {"SLURM_PROCID", "1"}});
  ASSERT_TRUE(torch.torchrun.has_value());
  EXPECT_EQ(torch.torchrun->run_id, "job7");
  EXPECT_EQ(torch.torchrun->world_size, 16);
  EXPECT_EQ(torch.torchrun->local_world_size, 8);
  EXPECT_EQ(torch.rank, 9);
  EXPECT_FALSE(torch.first_rank());
  EXPECT_FALSE(torch.mpi);
  try {
    refuse_unsupported_launcher(torch);
    ADD_FAILURE() << "torchrun with 16 processes accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("WORLD_SIZE 16"), std::string::npos) << e.what();
  }
  Launcher unknown = torch;
  unknown.torchrun->world_size.reset();
  EXPECT_THROW(refuse_unsupported_launcher(unknown), InputError);
  const Launcher one = detect_launcher({{"TORCHELASTIC_RUN_ID", "job8"}, {"WORLD_SIZE", "1"}, {"RANK", "0"}});
  EXPECT_NO_THROW(refuse_unsupported_launcher(one));  // a launcher-free run of one process
  const Launcher mpi = detect_launcher({{"TORCHELASTIC_RUN_ID", "job9"},
                                        {"WORLD_SIZE", "8"},
                                        {"OMPI_COMM_WORLD_SIZE", "4"},
                                        {"OMPI_COMM_WORLD_RANK", "2"}});
  EXPECT_EQ(mpi.rank, 2);
  EXPECT_NO_THROW(refuse_unsupported_launcher(mpi));
  EXPECT_FALSE(detect_launcher({{"WORLD_SIZE", "8"}, {"RANK", "3"}}).torchrun.has_value());
  EXPECT_NO_THROW(refuse_unsupported_launcher(detect_launcher({{"HOME", "/root"}})));
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

TEST(RelevantEnvironment, KeepsTheVariablesThatShapeARunAndMallocsOwn) {
  std::vector<std::string> entries{"NCCL_ALGO=ring",    "PATH=/bin",
                                   "MALLOC_TOP_PAD_=0", "GLIBC_TUNABLES=glibc.malloc.trim_threshold=1",
                                   "HOME=/root",        "NOEQUALS"};
  std::vector<char*> list;
  for (auto& entry : entries) list.push_back(entry.data());
  list.push_back(nullptr);
  const auto kept = relevant_environment(list.data());
  const std::map<std::string, std::string> expected{
      {"GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1"}, {"MALLOC_TOP_PAD_", "0"}, {"NCCL_ALGO", "ring"}};
  EXPECT_EQ(kept, expected);
}

TEST(ProgramOutput, RunsByArgvWithoutAShell) {
  EXPECT_EQ(program_output({"echo", "a;b", "$HOME"}, std::chrono::seconds(5)),
            std::optional<std::string>("a;b $HOME\n"));
  EXPECT_FALSE(program_output({"false"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"no-such-program-commtune"}, std::chrono::seconds(5)).has_value());
  EXPECT_FALSE(program_output({"sleep", "5"}, std::chrono::milliseconds(200)).has_value());
}

TEST(PrefaultedMemory, EveryPageIsPresentBeforeItIsWritten) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 8u << 20;
  const PrefaultedMemory memory(bytes);
  ASSERT_EQ(memory.bytes().size(), bytes);
  std::vector<unsigned char> resident(bytes / page);
  ASSERT_EQ(::mincore(memory.bytes().data(), bytes, resident.data()), 0);
  const auto present =
      std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return (r & 1) != 0; });
  utsname kernel{};
  ASSERT_EQ(::uname(&kernel), 0);
  int major = 0, minor = 0;
  ASSERT_EQ(std::sscanf(kernel.release, "%d.%d", &major, &minor), 2);
  if (major < 5 || (major == 5 && minor < 14))
    GTEST_SKIP() << "Linux " << kernel.release << " has no MADV_POPULATE_WRITE";
  EXPECT_EQ(present, static_cast<long>(resident.size()));
  EXPECT_TRUE(std::all_of(memory.bytes().begin(), memory.bytes().end(), [](char c) { return c == 0; }));
}

TEST(PrefaultedMemory, IsWritableToItsLastByte) {
  const PrefaultedMemory memory(3 * 4096 + 5);
  memory.bytes().back() = 7;
  memory.bytes().front() = 9;
  EXPECT_EQ(memory.bytes().back(), 7);
  EXPECT_EQ(memory.bytes().front(), 9);
}

TEST(CopyBandwidth, AShortCopyIsMeasuredAndNamed) {
  const CopyMeasurement m = measure_copy_bandwidth(1u << 20, 3);
  EXPECT_GT(m.gbps, 0.0);
  EXPECT_NE(m.method.find("memcpy of 1 MiB, median of 3 copies"), std::string::npos);
}

}  // namespace
}  // namespace commtune
