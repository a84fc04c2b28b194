#include "tune/run_permutation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/errors.hpp"

namespace commtune {
namespace {

constexpr double kNone = -std::numeric_limits<double>::infinity();

// One case's runs by pass: baseline passes first, then current ones (NaN: no run in that pass).
struct PassRow {
  std::vector<double> us;
  double widening = 0;
};
using PassMatrix = std::vector<PassRow>;

PassMatrix pass_matrix(const std::vector<PassCase>& cases, std::size_t m, std::size_t k) {
  PassMatrix out;
  out.reserve(cases.size());
  for (const PassCase& c : cases) {
    std::vector<double> row(m + k, std::numeric_limits<double>::quiet_NaN());
    const double widening = c.widening;
    const auto place = [&](const CaseRuns& runs, std::size_t first, std::size_t passes) {
      if (runs.run_us.empty() || runs.pass.size() != runs.run_us.size())
        throw Error("comparison_significance: a case without runs or pass ids on a side");
      for (std::size_t j = 0; j < runs.run_us.size(); ++j) {
        if (runs.pass[j] >= passes)
          throw Error("comparison_significance: a pass id beyond its side's passes");
        row[first + runs.pass[j]] = runs.run_us[j];
      }
    };
    place(*c.baseline, 0, m);
    place(*c.current, m, k);
    out.push_back(PassRow{std::move(row), widening});
  }
  return out;
}

struct Margins {
  double slower = kNone, faster = kNone;
};

// The largest margins over cases for one labelling (is_current[p] for each pass p).
Margins margins_of(const PassMatrix& matrix, const std::vector<char>& is_current, double threshold) {
  Margins out;
  for (const auto& [row, widening] : matrix) {
    double base_lo = INFINITY, base_hi = -INFINITY, cur_lo = INFINITY, cur_hi = -INFINITY;
    for (std::size_t p = 0; p < row.size(); ++p) {
      if (std::isnan(row[p])) continue;
      double& lo = is_current[p] ? cur_lo : base_lo;
      double& hi = is_current[p] ? cur_hi : base_hi;
      lo = std::min(lo, row[p]);
      hi = std::max(hi, row[p]);
    }
    if (!std::isfinite(base_hi) || !std::isfinite(cur_hi)) continue;  // a side empty under this labelling
    const double bar = (1 + threshold) * (1 + widening);
    out.slower = std::max(out.slower, cur_lo / (base_hi * bar) - 1);
    out.faster = std::max(out.faster, base_lo / (cur_hi * bar) - 1);
  }
  return out;
}

// Calls visit(is_current) for every labelling of k current passes among n, or for a sample.
template <class Visit>
void for_labellings(std::size_t n, std::size_t k, bool exact, Visit visit) {
  std::vector<char> labels(n, 0);
  std::fill(labels.end() - static_cast<std::ptrdiff_t>(k), labels.end(), 1);
  if (exact) {
    do visit(labels);
    while (std::next_permutation(labels.begin(), labels.end()));
    return;
  }
  std::mt19937_64 rng(0x636f6d6d74756e65ULL);  // fixed: the same files give the same p-value
  for (std::size_t i = 0; i < kSampledLabellings; ++i) {
    std::shuffle(labels.begin(), labels.end(), rng);
    visit(labels);
  }
}

}  // namespace

Significance comparison_significance(const std::vector<PassCase>& cases, std::size_t m, std::size_t k,
                                     double threshold) {
  Significance out;
  if (cases.empty() || m == 0 || k == 0) return out;
  const PassMatrix matrix = pass_matrix(cases, m, k);
  const double orderings = run_orderings(m, k);
  out.least_p = 1 / orderings;
  out.exact = orderings <= static_cast<double>(kExactLabellings);
  std::vector<char> real(m + k, 0);
  std::fill(real.begin() + static_cast<std::ptrdiff_t>(m), real.end(), 1);
  const Margins observed = margins_of(matrix, real, threshold);
  std::size_t total = out.exact ? 0 : 1, slower = out.exact ? 0 : 1,
              faster = out.exact ? 0 : 1;  // a sample counts the real one too
  for_labellings(m + k, k, out.exact, [&](const std::vector<char>& labels) {
    const Margins g = margins_of(matrix, labels, threshold);
    ++total;
    slower += g.slower >= observed.slower;
    faster += g.faster >= observed.faster;
  });
  out.labellings = total;
  out.slower_p = static_cast<double>(slower) / static_cast<double>(total);
  out.faster_p = static_cast<double>(faster) / static_cast<double>(total);
  if (!out.exact) out.least_p = 1 / static_cast<double>(total);
  return out;
}

}  // namespace commtune
