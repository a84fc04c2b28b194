#pragma once
// Runs the commtune binary (or mpirun with it) as a user would, with extra environment, and
// keeps its exit code and output; for the sweep-level fault-injection tests.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "results/results_document.hpp"

extern char** environ;

namespace commtune::testing {

struct Ran {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh folder per test, removed at the end.
class ScratchDir {
 public:
  ScratchDir() {
    char pattern[] = "/tmp/commtune-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// `extra` entries (NAME=value) are added to this process's environment for the child.
inline Ran run_program(const std::vector<std::string>& argv, const std::vector<std::string>& extra,
                       const ScratchDir& dir) {
  std::vector<std::string> environment(extra);
  auto overridden = [&](const std::string& entry) {
    for (const auto& e : extra)
      if (entry.compare(0, e.find('=') + 1, e, 0, e.find('=') + 1) == 0) return true;
    return false;
  };
  for (char** e = environ; *e != nullptr; ++e)
    if (!overridden(*e)) environment.emplace_back(*e);
  std::vector<char*> args, envs;
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);
  for (auto& e : environment) envs.push_back(e.data());
  envs.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const auto start = std::chrono::steady_clock::now();
  Ran ran;
  if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envs.data()) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    ran.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  ran.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ran.out = slurp(out);
  ran.err = slurp(err);
  return ran;
}

inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

inline std::string fault_config() {
  return std::string(COMMTUNE_SOURCE_DIR) + "/tests/nccl/fake-faults.json";
}

inline const CaseResult* find_case(const ResultsDocument& doc, const std::string& setting,
                                   std::size_t nth = 0) {
  for (const auto& c : doc.cases)
    if (c.setting == setting && nth-- == 0) return &c;
  return nullptr;
}

// What the fake-faults preset must produce, whichever control plane ran it.
inline void expect_every_fault_recorded(const ResultsDocument& doc) {
  EXPECT_TRUE(doc.complete);
  for (const std::string healthy : {"default", "ring", "simple"})
    for (std::size_t i = 0; i < 4; ++i) {
      const CaseResult* c = find_case(doc, healthy, i);
      ASSERT_NE(c, nullptr) << healthy;
      EXPECT_EQ(c->status, CaseStatus::Ok) << healthy << ": " << c->reason;
      EXPECT_EQ(c->wrong, 0);
      EXPECT_GT(c->time_us.median, 0);
    }
  struct Want {
    const char* setting;
    CaseStatus first;
    const char* words;
  };
  for (const Want& w : {Want{"hang-init", CaseStatus::TimedOut, "communicator init within"},
                        Want{"crash-init", CaseStatus::Failed, "signal 11"},
                        Want{"hang-case", CaseStatus::TimedOut, "did not finish timing"},
                        Want{"crash-case", CaseStatus::Failed, "signal 11"},
                        Want{"garbage", CaseStatus::Failed, "broke the protocol"},
                        Want{"exit-early", CaseStatus::Failed, "exited with status 0"},
                        Want{"error-case", CaseStatus::Failed, "simulated NCCL failure"}}) {
    const CaseResult* first = find_case(doc, w.setting);
    ASSERT_NE(first, nullptr) << w.setting;
    EXPECT_EQ(first->status, w.first) << w.setting << ": " << first->reason;
    EXPECT_NE(first->reason.find(w.words), std::string::npos) << w.setting << ": " << first->reason;
  }
  EXPECT_EQ(find_case(doc, "hang-case", 1)->status, CaseStatus::Skipped);
  EXPECT_EQ(find_case(doc, "hang-init", 3)->status, CaseStatus::TimedOut);
  EXPECT_EQ(find_case(doc, "error-case", 1)->status,
            CaseStatus::Ok);  // a plain error leaves the worker usable
}

}  // namespace commtune::testing
