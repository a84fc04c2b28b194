#pragma once
// nccl-tests' flags that `commtune sweep` has no flag of its own for (nccl-tests 2.19's list, and
// the older -F). A user of all_reduce_perf types them from habit (`-g 1`, `-a 3`, `-z 0`); none is
// silently ignored:
// - accepted where its value is what commtune does anyway (`-g 1`: one GPU per worker process);
// - mapped where commtune does the same under another name: -N is --repeat, -J --out, -T
//   --case-timeout (names of those options), -G N (N >= 1) --graph, -a 1 the NCCL backend's
//   nt-time column (nccl-tests' figure, docs/statistics.md);
// - refused otherwise (InputError: the flag and its value, what commtune does instead, and what to
//   type where there is something to type), before anything starts.
// `-c N` (nccl-tests' check count) is taken by sweep_command; `-d all`, `-o all`, `-o avg` are
// answered here, and nccl-tests' split variables (NCCL_TESTS_SPLIT, NCCL_TESTS_SPLIT_MASK) read.
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/backend_kind.hpp"
#include "plan/sweep_options.hpp"

namespace commtune {

// The values as typed, by short flag letter; a letter present was given.
struct NcclTestsHabits {
  std::map<char, std::string> values;
};

// Adds the flags to `cmd` out of --help's option list (its footer names them), each storing into
// `habits` (a letter's entry exists once the flag is given).
void add_nccl_tests_habits(CLI::App* cmd, NcclTestsHabits& habits);

// The letters given on `cmd` with their values, in the table's order.
NcclTestsHabits given_nccl_tests_habits(const CLI::App& cmd, const NcclTestsHabits& parsed);

// What the given flags ask of a sweep on `backend`.
struct NcclTestsEffect {
  bool graph = false;              // -G N, N >= 1
  std::vector<std::string> notes;  // what an accepted flag means here, for the plan's warnings
};

// Throws InputError for the first given flag whose value commtune cannot honour on `backend`.
NcclTestsEffect nccl_tests_effect(const NcclTestsHabits& given, BackendKind backend);

// -d's and -o's values as typed, refused where nccl-tests runs several in one program (`all`) or has
// an op commtune does not (`avg`, `mulsum`: InputError saying what to type instead).
std::string nccl_tests_type(const std::string& text);
std::string nccl_tests_op(const std::string& text);

// nccl-tests' split variables as the environment has them (null: not set).
struct SplitEnvironment {
  const char* split = nullptr;  // NCCL_TESTS_SPLIT: "MOD 8"
  const char* mask = nullptr;   // NCCL_TESTS_SPLIT_MASK: hex, color = rank & mask (nccl-tests reads it first)
};
SplitEnvironment split_environment();

// An nccl-tests user's habit is not silently ignored: without --groups (or a config's "groups"), a
// set NCCL_TESTS_SPLIT_MASK or NCCL_TESTS_SPLIT becomes the sweep's group spec; with them, it is
// left alone. Either way the plan says which is used. A malformed value is an InputError naming
// the variable.
void apply_split_environment(const SplitEnvironment& split, bool groups_chosen, SweepOptions& options);

// --help's footer: which nccl-tests flags are understood and where the rest are answered.
std::string nccl_tests_habits_footer();

}  // namespace commtune
