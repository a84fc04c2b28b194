#pragma once
// The regression rule of `compare` (docs/compare.md): one case, judged on the spread between
// runs, not on the noise inside one run. Each side is the case's run-level figures (each run's
// median; or nccl-tests' time); each side's band is the range of its runs (one run: its median's
// ~95% interval). SLOWER when every current run lies above the highest baseline run by more than
// the threshold (lo_current > hi_baseline x (1 + threshold)); FASTER the mirror image; SAME when
// the change of the medians is under the threshold; AMBIGUOUS otherwise.
//
// Why it holds for small N: with m baseline and k current runs of the same code, each ordering of
// the m + k runs is equally likely, so all k current runs land above all m baseline runs with
// probability 1 / C(m + k, k) (a rank test), before the threshold even widens the bar. When the
// runs are too few for that to reach 2.5% (C(m + k, k) < 40: a single-run side, 3 + 3, ...), the
// baseline band is widened by a default between-run noise (`run_noise`), so such a verdict
// comes out AMBIGUOUS rather than SLOWER unless the change is far beyond that noise.
#include <cstddef>
#include <string_view>
#include <vector>

namespace commtune {

enum class Verdict { Faster, Slower, Same, Ambiguous };
std::string_view name_of(Verdict v);

// Between-run noise (relative) assumed where the runs cannot show it: the upper end of the spread
// of six back-to-back host sweeps on a quiet machine (docs/compare.md has what
// scripts/bench-compare-noise.sh measured here, on a loaded one); --run-noise overrides it.
inline constexpr double kDefaultRunNoise = 0.25;
// The whole comparison's false-alarm rate (tune/run_permutation.hpp): 2.5%, so that a CI gate's
// rate stays under 5% with room for the launch-to-launch drift that no pass inside one file shows.
inline constexpr double kComparisonAlpha = 0.025;
// Least number of orderings (C(m + k, k)) for the rank argument alone to reach that rate: 4 + 4
// runs (70), 5 + 3 (56), 7 + 2 (36 is too few: 8 + 2 = 45).
inline constexpr double kRankOrderings = 1 / kComparisonAlpha;
// A lone size (no neighbouring size of the same setting and collective also SLOWER) stays SLOWER
// only when even the low end of its change interval is this many thresholds above zero.
inline constexpr double kLoneSizeFactor = 3;

struct CaseRuns {
  std::vector<double> run_us;       // one figure per run, > 0
  double ci_low = 0, ci_high = 0;   // one run: its median's interval (0: unknown, the figure itself)
  std::vector<std::size_t> pass{};  // which pass of its side each run came from (tune/run_permutation.hpp)
};

struct RunRule {
  double threshold = 0.05;
  double run_noise = kDefaultRunNoise;
  // Launches (results files) a side's runs come from: the runs of one launch share its conditions
  // (the placement of its ranks, the state of the machine), which no run inside it shows, so
  // fewer than kRankOrderings orderings of launches widen the baseline band as too few runs do.
  // (A side of several files gives one figure per launch: tune/case_runs.hpp.)
  std::size_t baseline_launches = 0, current_launches = 0;  // 0: not known (runs are launches)
};

struct RunsVerdict {
  Verdict verdict = Verdict::Same;
  double change = 0;                       // median of current runs / median of baseline runs - 1
  double change_low = 0, change_high = 0;  // the change's interval, from the two bands
  bool widened = false;  // too few runs or launches: the baseline band got the default noise
};

// C(m + k, k): how many orderings of m baseline and k current runs there are.
double run_orderings(std::size_t baseline_runs, std::size_t current_runs);

// Both sides have at least one run.
RunsVerdict runs_verdict(const CaseRuns& baseline, const CaseRuns& current, const RunRule& rule);

// The evidence a lone size needs to stay SLOWER (or FASTER).
bool strong_evidence(const RunsVerdict& j, double threshold);

}  // namespace commtune
