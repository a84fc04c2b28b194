// nccl-tests' flags on `commtune sweep` (cli/nccl_tests_habits, cli/sweep_command): every flag of
// nccl-tests 2.19 parses; values commtune runs anyway are accepted, the mapped ones become the
// commtune option, the rest are InputErrors that start with the flag and its value.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/nccl_tests_habits.hpp"
#include "cli/sweep_command.hpp"
#include "core/errors.hpp"

namespace commtune {
namespace {

NcclTestsHabits habits(std::initializer_list<std::pair<const char, std::string>> values) {
  return NcclTestsHabits{{values}};
}

// The InputError's text, or "" when the flags are accepted.
std::string refusal(const NcclTestsHabits& given, BackendKind backend) {
  try {
    nccl_tests_effect(given, backend);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

TEST(NcclTestsHabits, ValuesCommtuneRunsAnywayAreAcceptedOnEitherBackend) {
  for (const BackendKind backend : {BackendKind::Mpi, BackendKind::Nccl}) {
    const auto effect = nccl_tests_effect(habits({{'t', "1"},
                                                  {'g', "1"},
                                                  {'m', "1"},
                                                  {'p', "0"},
                                                  {'z', "0"},
                                                  {'y', "0"},
                                                  {'C', "0"},
                                                  {'S', "0"},
                                                  {'R', "0"},
                                                  {'D', "0"},
                                                  {'V', "16"},
                                                  {'M', "0"},
                                                  {'u', "0"},
                                                  {'I', "1"},
                                                  {'K', "0"},
                                                  {'a', "3"},
                                                  {'G', "0"}}),
                                          backend);
    EXPECT_FALSE(effect.graph);
    EXPECT_TRUE(effect.notes.empty());
  }
  EXPECT_EQ(refusal(habits({{'p', "1"}, {'I', "0"}}), BackendKind::Mpi), "");
}

TEST(NcclTestsHabits, EveryOtherValueIsRefusedNamingTheFlagAndItsValue) {
  const std::vector<std::pair<char, std::string>> refused = {
      {'t', "2"}, {'g', "8"}, {'m', "4"},       {'p', "2"}, {'z', "1"}, {'z', "3"}, {'y', "1"},
      {'C', "1"}, {'S', "1"}, {'R', "2"},       {'x', "0"}, {'D', "1"}, {'M', "1"}, {'u', "1"},
      {'I', "2"}, {'K', "5"}, {'F', "out.csv"}, {'a', "0"}, {'a', "2"}, {'G', "-1"}};
  for (const auto& [letter, value] : refused)
    for (const BackendKind backend : {BackendKind::Mpi, BackendKind::Nccl}) {
      const std::string text = refusal(habits({{letter, value}}), backend);
      EXPECT_EQ(text.rfind(std::string("-") + letter + " " + value + ": ", 0), 0u) << letter << value << text;
    }
}

TEST(NcclTestsHabits, AValueThatIsNoIntegerNamesTheFlag) {
  for (const char letter : {'g', 't', 'a', 'G', 'V'}) {
    const std::string text = refusal(habits({{letter, "one"}}), BackendKind::Nccl);
    EXPECT_EQ(text.rfind(std::string("-") + letter + ": expected an integer", 0), 0u) << text;
  }
}

// -a 1 (nccl-tests' default: the mean over ranks) is the NCCL backend's nt-time column; the MPI
// backend keeps only each call's slowest rank (-a 3).
TEST(NcclTestsHabits, TheMeanOverRanksIsNcclsNtTimeAndRefusedOnMpi) {
  const auto nccl = nccl_tests_effect(habits({{'a', "1"}}), BackendKind::Nccl);
  ASSERT_EQ(nccl.notes.size(), 1u);
  EXPECT_EQ(nccl.notes.front().rfind("-a 1: ", 0), 0u);
  EXPECT_EQ(refusal(habits({{'a', "1"}}), BackendKind::Mpi).rfind("-a 1: ", 0), 0u);
}

TEST(NcclTestsHabits, GraphLaunchesAreTheGraphOptionOnNcclOnly) {
  EXPECT_TRUE(nccl_tests_effect(habits({{'G', "1"}}), BackendKind::Nccl).graph);
  EXPECT_TRUE(nccl_tests_effect(habits({{'G', "10"}}), BackendKind::Nccl).graph);
  EXPECT_FALSE(nccl_tests_effect(habits({{'G', "0"}}), BackendKind::Nccl).graph);
  EXPECT_EQ(refusal(habits({{'G', "1"}}), BackendKind::Mpi).rfind("-G 1: ", 0), 0u);
}

// The sweep command as a user types it: every flag nccl-tests 2.19 has, with a value commtune
// accepts, parses; the mapped ones land in commtune's options.
struct Parsed {
  CLI::App app{"commtune"};
  SweepCommandOptions options;
  explicit Parsed(std::vector<std::string> argv) {
    add_sweep_command(app, options);
    argv.insert(argv.begin(), "sweep");
    std::reverse(argv.begin(), argv.end());  // CLI11 takes the arguments last first
    app.parse(argv);
  }
};

TEST(NcclTestsHabits, EveryNcclTestsFlagParsesAndTheMappedOnesAreCommtunesOptions) {
  Parsed p({"-t", "1",  "-g", "1",   "-b", "8",     "-e", "1M",     "-f",        "2",  "-n", "20",
            "-m", "1",  "-w", "5",   "-N", "3",     "-p", "0",      "-I",        "0",  "-K", "0",
            "-c", "1",  "-o", "sum", "-d", "float", "-r", "0",      "-z",        "0",  "-y", "0",
            "-T", "30", "-G", "0",   "-C", "0",     "-a", "3",      "-R",        "0",  "-D", "0",
            "-V", "16", "-M", "0",   "-u", "0",     "-J", "r.json", "--backend", "mpi"});
  EXPECT_EQ(p.options.repeat, "3");
  EXPECT_EQ(p.options.out_path, "r.json");
  EXPECT_EQ(p.options.nccl.case_timeout_s, 30.0);
  const NcclTestsHabits given = given_nccl_tests_habits(*p.options.command, p.options.nccl_tests);
  std::string letters;
  for (const auto& [letter, value] : given.values) letters += letter;
  EXPECT_EQ(letters, "CDGIKMRVagmptuyz");  // u too
  EXPECT_EQ(given.values.at('g'), "1");
  EXPECT_NO_THROW(nccl_tests_effect(given, BackendKind::Mpi));
  const SweepConfig config = resolve_sweep_config(p.options);
  EXPECT_EQ(config.options.repeat, 3u);
  EXPECT_EQ(config.options.sizes.max_bytes, 1u << 20);
}

TEST(NcclTestsHabits, TheirLongNamesParseToo) {
  Parsed p({"--ngpus", "1", "--nthreads", "1", "--average", "3", "--run_cycles", "2", "--output_file",
            "o.json", "--timeout", "5", "--blocking", "0", "--cudagraph", "0"});
  EXPECT_EQ(p.options.repeat, "2");
  EXPECT_EQ(p.options.out_path, "o.json");
  EXPECT_EQ(p.options.nccl.case_timeout_s, 5.0);
  EXPECT_EQ(given_nccl_tests_habits(*p.options.command, p.options.nccl_tests).values.size(), 5u);
}

// nccl-tests' -c counts checked iterations; -d all and -o all run every type and op in one program.
TEST(NcclTestsHabits, ACheckCountIsTheCheckAndAllTypesOrOpsAreAnswered) {
  Parsed check({"-c", "5"});
  const SweepConfig config = resolve_sweep_config(check.options);
  EXPECT_TRUE(config.options.check);
  ASSERT_FALSE(config.options.notes.empty());
  EXPECT_EQ(config.options.notes.front().rfind("-c 5 ", 0), 0u);
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"-d", "all"}, {"-o", "all"}, {"-o", "avg"}, {"-o", "mulsum"}, {"-c", "-1"}, {"-N", "0"}}) {
    Parsed p(argv);
    try {
      resolve_sweep_config(p.options);
      ADD_FAILURE() << argv[0] << " " << argv[1] << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(argv[1]), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace commtune
