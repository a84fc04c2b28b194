#pragma once
// What the GPU sweep tests share: which executables they run, when they skip, the short sweep they
// start from, and the checks every results file of theirs must pass. Assertions read the results
// JSON (status, #wrong, ranks, provenance), never timings.
//
// Executables: the build tree's by default; on a GPU machine, where the build tree is not there,
// COMMTUNE_TEST_BIN_DIR names the folder of the packed copies (scripts/device-check.sh sets it).
// COMMTUNE_GPU_TESTS_SIMULATED=1 runs every sweep with the test build commtune-simulated instead,
// no GPU needed: a dry run of the tests' command lines and checks (CTest runs it under label mpi).
#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/choice_capture.hpp"

#include "../unit/nccl/run_commtune.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"

namespace commtune::gpu_testing {

using testing::Ran;
using testing::ScratchDir;

inline bool simulated() {
  const char* value = std::getenv("COMMTUNE_GPU_TESTS_SIMULATED");
  return value != nullptr && std::string(value) == "1";
}

// Why these tests cannot run here, or empty when they can.
inline std::string why_skip() {
  if (simulated()) return "";
  if (visible_gpu_count() == 0) return "no GPU visible: a real NCCL sweep needs one";
  return "";
}

#define COMMTUNE_SKIP_WITHOUT_GPU()                                 \
  do {                                                              \
    const std::string reason = ::commtune::gpu_testing::why_skip(); \
    if (!reason.empty()) GTEST_SKIP() << reason;                    \
  } while (false)

inline std::string executable(const std::string& name, const std::string& built) {
  if (simulated()) return COMMTUNE_SIMULATED_BINARY;
  if (const char* dir = std::getenv("COMMTUNE_TEST_BIN_DIR"); dir != nullptr && *dir != '\0')
    return std::string(dir) + "/" + name;
  return built;
}
inline std::string product_binary() { return executable("commtune", COMMTUNE_BINARY); }
inline std::string faults_binary() { return executable("commtune-faults", COMMTUNE_FAULTS_BINARY); }

// Every rank of these tests is on the one GPU of the machine and talks over loopback sockets.
inline std::vector<std::string> sweep_environment() { return {"NCCL_SOCKET_IFNAME=lo"}; }

// `binary sweep --backend nccl` over 8 B, 256 B, 8 KiB and 256 KiB, a few samples per case, the data
// check on, watchdog deadlines far above what such cases take; `more` is appended.
inline std::vector<std::string> short_sweep(const std::string& binary, const std::string& out,
                                            const std::vector<std::string>& more) {
  std::vector<std::string> argv = {binary,
                                   "sweep",
                                   "--backend",
                                   "nccl",
                                   "-b",
                                   "8",
                                   "-e",
                                   "1M",
                                   "-f",
                                   "32",
                                   "--min-time",
                                   "0",
                                   "--max-time",
                                   "0.05",
                                   "--min-samples",
                                   "5",
                                   "-w",
                                   "2",
                                   "-c",
                                   "1",
                                   "--init-timeout",
                                   "60",
                                   "--case-timeout",
                                   "30",
                                   "--out",
                                   out};
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// COMMTUNE_MPIRUN (CTest sets it; scripts/device-check.sh on a GPU machine) as words, then -np N and
// the variables every rank needs; empty when it is not set.
inline std::vector<std::string> mpirun(int np) {
  const char* text = std::getenv("COMMTUNE_MPIRUN");
  std::vector<std::string> argv = testing::words(text != nullptr ? text : "");
  if (argv.empty()) return argv;
  for (const std::string& a :
       {std::string("-np"), std::to_string(np), std::string("-x"), std::string("NCCL_SOCKET_IFNAME=lo")})
    argv.push_back(a);
  return argv;
}

inline nlohmann::json read_results(const std::string& path) {
  try {
    return nlohmann::json::parse(testing::slurp(path));
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

// One sweep's run: its exit, its output and its results file (null when it wrote none).
struct SweepRun {
  Ran ran;
  nlohmann::json results;
};

inline SweepRun run_sweep(const std::vector<std::string>& argv, const ScratchDir& dir,
                          const std::string& out) {
  SweepRun run;
  run.ran = testing::run_program(argv, sweep_environment(), dir);
  run.results = read_results(out);
  return run;
}

// Several sweeps at once, each in its own folder (its results at DIR/r.json); `argv_for` makes
// one's command line from its results path. Waits for all of them.
template <typename ArgvFor>
std::vector<SweepRun> run_sweeps_together(std::size_t how_many, ArgvFor argv_for) {
  std::vector<std::unique_ptr<ScratchDir>> dirs;
  std::vector<std::future<SweepRun>> running;
  for (std::size_t i = 0; i < how_many; ++i) {
    dirs.push_back(std::make_unique<ScratchDir>());
    const std::string out = dirs.back()->file("r.json");
    running.push_back(std::async(std::launch::async, [argv = argv_for(i, out), &dir = *dirs.back(), out] {
      return run_sweep(argv, dir, out);
    }));
  }
  std::vector<SweepRun> runs;
  for (auto& r : running) runs.push_back(r.get());
  return runs;
}

inline std::string describe(const nlohmann::json& c) {
  return c.value("setting", "?") + " " + c.value("collective", "?") + " " + c["bytes"].dump() + " B " +
         c.value("dtype", "?") + " " + c.value("op", "?") + " " + c.value("placement", "?");
}

// Every case of a finished sweep was measured on `nranks` ranks with correct data (the check was on);
// where the results carry the nccl-tests-style time, it is a positive number.
inline void expect_all_measured(const nlohmann::json& results, int nranks, const std::string& what) {
  ASSERT_TRUE(results.is_object()) << what << ": no readable results file";
  EXPECT_EQ(results.value("backend", ""), "nccl") << what;
  EXPECT_TRUE(results.value("complete", false)) << what;
  ASSERT_TRUE(results.contains("cases") && !results["cases"].empty()) << what << ": no cases";
  for (const auto& c : results["cases"]) {
    EXPECT_EQ(c.value("status", ""), "ok") << what << ": " << describe(c) << ": " << c.value("reason", "");
    EXPECT_EQ(c.value("wrong", -2), 0) << what << ": " << describe(c);
    EXPECT_EQ(c.value("nranks", 0), nranks) << what << ": " << describe(c);
    if (c.contains("nccl_tests_us")) {
      ASSERT_TRUE(c["nccl_tests_us"].is_number()) << what << ": " << describe(c);
      EXPECT_GT(c["nccl_tests_us"].get<double>(), 0.0) << what << ": " << describe(c);
    }
  }
}

inline std::size_t count_cases(const nlohmann::json& results, const std::string& field,
                               const std::string& value) {
  std::size_t n = 0;
  if (results.is_object() && results.contains("cases"))
    for (const auto& c : results["cases"]) n += c.value(field, "") == value ? 1 : 0;
  return n;
}

// What the provenance of an NCCL sweep says: `supervisors` supervisors (MPI ranks, or 1 without a
// launcher), whether nodes were emulated and whether timing went through CUDA graphs, and (on a
// real GPU) the NCCL and CUDA versions the workers reported.
inline void expect_nccl_provenance(nlohmann::json results, int supervisors, bool emulated, bool graph) {
  ASSERT_TRUE(results.is_object());
  nlohmann::json& provenance = results["provenance"];
  ASSERT_TRUE(provenance["nccl"].is_object()) << provenance.dump(1);
  // The layout lists every rank (worker), however many supervisors run them.
  if (results.contains("cases") && !results["cases"].empty()) {
    EXPECT_EQ(provenance["layout"]["nranks"], results["cases"][0]["nranks"]);
  }
  EXPECT_EQ(provenance["nccl"]["supervisors"].size(), static_cast<std::size_t>(supervisors));
  EXPECT_EQ(provenance["nccl"]["emulated_nodes"], emulated);
  EXPECT_EQ(provenance["nccl"]["cuda_graph_launch"], graph);
  for (auto& supervisor : provenance["nccl"]["supervisors"]) {
    nlohmann::json& devices = supervisor["devices"];
    EXPECT_TRUE(devices["nccl_version"].is_string() && !devices["nccl_version"].get<std::string>().empty())
        << devices.dump();
    EXPECT_FALSE(devices["devices"].empty()) << devices.dump();
    if (!simulated()) {
      EXPECT_NE(devices["nccl_version"], "simulated");
      EXPECT_NE(devices["cuda_driver"], "simulated");
    }
  }
  bool labelled = false;
  for (const auto& label : provenance["labels"])
    labelled |= label.get<std::string>().rfind("emulated-nodes", 0) == 0;
  EXPECT_EQ(labelled, emulated) << provenance["labels"].dump();
}

// What NCCL chose by itself is recorded on every measured case of the default setting (commtune's
// tuner plugin in record mode: on a GPU machine the real NCCL loads it, so it must be packed beside
// the executables, .device/lib/libnccl-tuner-commtune.so), with tokens the results reader accepts.
inline void expect_nccl_choice_recorded(const nlohmann::json& results) {
  ASSERT_TRUE(results.is_object());
  const nlohmann::json& record = results["provenance"]["nccl"]["nccl_choice"];
  ASSERT_EQ(record.value("recorded", false), true) << record.dump();
  std::size_t recorded = 0;
  for (const auto& c : results["cases"]) {
    if (c.value("setting", "") != "default" || c.value("status", "") != "ok") continue;
    ASSERT_TRUE(c.contains("nccl_choice")) << describe(c);
    EXPECT_EQ(c["nccl_choice"].value("recorded", false), true)
        << describe(c) << ": " << c["nccl_choice"].dump();
    recorded += c["nccl_choice"].value("recorded", false) ? 1 : 0;
  }
  EXPECT_GT(recorded, 0u);
  EXPECT_NO_THROW(results_from_json(results, "r.json")) << "the results reader refuses the recorded choices";
}

// A one-rank sweep: NCCL never asks a tuner, the results say so for every default case.
inline void expect_nccl_choice_not_asked(const nlohmann::json& results) {
  ASSERT_TRUE(results.is_object());
  const nlohmann::json& record = results["provenance"]["nccl"]["nccl_choice"];
  EXPECT_EQ(record.value("recorded", true), false) << record.dump();
  EXPECT_EQ(record.value("reason", ""), kNotAskedAtOneRank) << record.dump();
  for (const auto& c : results["cases"]) {
    if (c.value("setting", "") != "default" || c.value("status", "") != "ok") continue;
    EXPECT_EQ(c["nccl_choice"].value("recorded", true), false) << describe(c);
  }
}

}  // namespace commtune::gpu_testing
