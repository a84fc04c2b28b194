#include "cli/nccl_tests_habits.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "plan/groups.hpp"

namespace commtune {
namespace {

// How a flag's value is judged.
enum class Judged {
  Accepted,  // the values in `accepted` are what commtune does; the rest are refused with `instead`
  AnyInt,    // any integer: the flag changes nothing nccl-tests would do here either
  Refused,   // every value: commtune has nothing of the kind
  Average,   // -a: depends on the backend
  Graph,     // -G: --graph from 1 on
};

struct Habit {
  char letter;
  const char* names;  // as CLI11 takes them
  Judged judged;
  std::array<int, 2> accepted;  // Accepted: the values taken (a value repeated where only one is)
  const char* instead;          // what commtune does, and what to type where there is something
};

constexpr const char* kOneGpuPerWorker =
    "commtune drives one GPU per worker process, with no threads: without a launcher --ranks N starts N "
    "workers (default: one per visible GPU); under mpirun/srun start one rank per GPU (-np)";

constexpr std::array kHabits = {
    Habit{'t', "-t,--nthreads", Judged::Accepted, {1, 1}, kOneGpuPerWorker},
    Habit{'g', "-g,--ngpus", Judged::Accepted, {1, 1}, kOneGpuPerWorker},
    Habit{
        'm',
        "-m,--agg_iters",
        Judged::Accepted,
        {1, 1},
        "commtune launches every call alone (short calls are timed in blocks of back-to-back calls); it has "
        "no aggregated launches"},
    Habit{'p',
          "-p,--parallel_init",
          Judged::Accepted,
          {0, 1},
          "0 or 1: every commtune worker initialises its own communicator, all at once"},
    Habit{'z',
          "-z,--blocking",
          Judged::Accepted,
          {0, 0},
          "commtune launches calls back to back, with no barrier or wait between them (nccl-tests -z 0)"},
    Habit{'y',
          "-y,--stream_null",
          Judged::Accepted,
          {0, 0},
          "commtune's workers launch on a stream of their own (nccl-tests -y 0)"},
    Habit{'C',
          "-C,--report_cputime",
          Judged::Accepted,
          {0, 0},
          "commtune reports wall time (nccl-tests -C 0); each rank's share of the CPU during a case is in "
          "the results file (cpu_share)"},
    Habit{'S',
          "-S,--report_timestamps",
          Judged::Accepted,
          {0, 0},
          "commtune prints no timestamp per size (nccl-tests -S 0)"},
    Habit{'R',
          "-R,--local_register",
          Judged::Accepted,
          {0, 0},
          "commtune does not register its buffers with NCCL (nccl-tests -R 0)"},
    Habit{'x',
          "-x,--cta_policy",
          Judged::Refused,
          {0, 0},
          "commtune leaves NCCL's CTA policy at NCCL's default (nccl-tests without -x)"},
    Habit{'D',
          "-D,--device_implementation",
          Judged::Accepted,
          {0, 0},
          "commtune measures NCCL's own implementation (nccl-tests -D 0)"},
    Habit{'V', "-V,--device_cta_count", Judged::AnyInt, {0, 0}, ""},
    Habit{'M', "-M,--memory", Judged::Accepted, {0, 0}, "commtune prints no memory report (nccl-tests -M 0)"},
    Habit{'u',
          "-u,--unalign",
          Judged::Accepted,
          {0, 0},
          "commtune's buffers start on a page (nccl-tests -u 0)"},
    Habit{'I',
          "-I,--per_iter_timing",
          Judged::Accepted,
          {0, 1},
          "0 or 1: the results file keeps each case's per-call figures either way"},
    Habit{'K',
          "-K,--per_iter_skip",
          Judged::Accepted,
          {0, 0},
          "the calls commtune leaves out of a case's figures are its warm-up: -w N"},
    Habit{'F',
          "-F",
          Judged::Refused,
          {0, 0},
          "commtune writes its results as JSON, never CSV: --out FILE.json (or -J FILE.json)"},
    Habit{'a', "-a,--average", Judged::Average, {0, 0}, ""},
    Habit{'G', "-G,--cudagraph", Judged::Graph, {0, 0}, ""},
};

int integer_of(const Habit& habit, const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError(std::string("-") + habit.letter + ": expected an integer, got " + quote_text(text));
  return value;
}

std::string flag_text(const Habit& habit, const std::string& value) {
  return std::string("-") + habit.letter + " " + value;
}

// -a: nccl-tests reports rank 0's (0), the mean over ranks (1, its default), the least (2) or the
// most (3) of each rank's time. commtune's time is each call's slowest rank; the NCCL backend keeps
// nccl-tests' mean over ranks too (nt-time).
void judge_average(const Habit& habit, const std::string& text, BackendKind backend,
                   NcclTestsEffect& effect) {
  const int value = integer_of(habit, text);
  if (value == 3) return;
  if (value == 1 && backend == BackendKind::Nccl) {
    effect.notes.push_back(
        "-a 1: nccl-tests' figure, each rank's loop time averaged over ranks, is the nt-time "
        "column (time: each call's slowest rank)");
    return;
  }
  if (value == 1)
    throw InputError(
        "-a 1: the MPI backend's time is each call's slowest rank (nccl-tests -a 3), the one "
        "figure it keeps: give -a 3 or leave -a out");
  throw InputError(
      flag_text(habit, text) +
      ": commtune reports each call's slowest rank (time: nccl-tests -a 3) and, on NCCL, the mean "
      "over ranks (nt-time: -a 1): give -a 3 or -a 1");
}

void judge_graph(const Habit& habit, const std::string& text, BackendKind backend, NcclTestsEffect& effect) {
  const int value = integer_of(habit, text);
  if (value < 0) throw InputError(flag_text(habit, text) + ": expected a count of graph launches, 0 or more");
  if (value == 0) return;
  if (backend != BackendKind::Nccl)
    throw InputError(flag_text(habit, text) + ": CUDA graphs are an NCCL backend option (--graph)");
  effect.graph = true;
  effect.notes.push_back(flag_text(habit, text) + ": each batch timed as one CUDA graph (--graph)");
}

void judge(const Habit& habit, const std::string& text, BackendKind backend, NcclTestsEffect& effect) {
  switch (habit.judged) {
    case Judged::Average:
      return judge_average(habit, text, backend, effect);
    case Judged::Graph:
      return judge_graph(habit, text, backend, effect);
    case Judged::AnyInt:
      integer_of(habit, text);
      return;
    case Judged::Refused:
      throw InputError(flag_text(habit, text) + ": " + habit.instead);
    case Judged::Accepted: {
      const int value = integer_of(habit, text);
      if (std::find(habit.accepted.begin(), habit.accepted.end(), value) == habit.accepted.end())
        throw InputError(flag_text(habit, text) + ": " + habit.instead);
      return;
    }
  }
}

}  // namespace

void add_nccl_tests_habits(CLI::App* cmd, NcclTestsHabits& habits) {
  for (const Habit& habit : kHabits)
    cmd->add_option(habit.names, habits.values[habit.letter])->group("");  // out of the option list
}

NcclTestsHabits given_nccl_tests_habits(const CLI::App& cmd, const NcclTestsHabits& parsed) {
  NcclTestsHabits given;
  for (const Habit& habit : kHabits)
    if (cmd.count(std::string("-") + habit.letter) > 0)
      given.values[habit.letter] = parsed.values.at(habit.letter);
  return given;
}

NcclTestsEffect nccl_tests_effect(const NcclTestsHabits& given, BackendKind backend) {
  NcclTestsEffect effect;
  for (const Habit& habit : kHabits)
    if (const auto it = given.values.find(habit.letter); it != given.values.end())
      judge(habit, it->second, backend, effect);
  return effect;
}

std::string nccl_tests_type(const std::string& text) {
  if (text == "all")
    throw InputError(
        "all: commtune sweeps one data type a run (its settings compared at that type): run it "
        "once per type, e.g. -d float, then -d half");
  return text;
}

std::string nccl_tests_op(const std::string& text) {
  if (text == "all")
    throw InputError(
        "all: commtune sweeps one reduction a run: run it once per op, e.g. -o sum, then -o max");
  if (text == "avg" || text == "mulsum")
    throw InputError(text + ": commtune has no " + text +
                     "; NCCL's moves the same data as sum and only scales it: -o sum measures its traffic");
  return text;
}

SplitEnvironment split_environment() {
  return SplitEnvironment{std::getenv("NCCL_TESTS_SPLIT"), std::getenv("NCCL_TESTS_SPLIT_MASK")};
}

void apply_split_environment(const SplitEnvironment& split, bool groups_chosen, SweepOptions& options) {
  const bool mask = split.mask != nullptr;
  const char* variable = mask ? "NCCL_TESTS_SPLIT_MASK" : "NCCL_TESTS_SPLIT";
  const char* value = mask ? split.mask : split.split;
  if (value == nullptr) return;
  const std::string set = std::string(variable) + "=" + quote_text(value);
  if (groups_chosen) {
    options.notes.push_back(set + " is not used: the groups of --groups (or the config) are");
    return;
  }
  const GroupSpec spec = mask ? parse_split_mask(value, variable) : parse_group_spec(value, variable);
  options.groups = {spec};
  options.notes.push_back(set + " used as --groups '" + spec.name() + "'");
}

std::string nccl_tests_habits_footer() {
  return "nccl-tests' flags: -b -e -f -i -n -w -d -o -r -c as above; -N is --repeat, -J --out, -T "
         "--case-timeout, -G N --graph; -t 1, -g 1, -m 1, -a 3 (and -a 1 on NCCL: the nt-time column), -p, "
         "-z 0, -y 0, -C 0, -S 0, -R 0, -D 0, -V, -M 0, -u 0, -I, -K 0 are what commtune does anyway; any "
         "other value is answered with what commtune does instead.";
}

}  // namespace commtune
