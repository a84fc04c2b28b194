// Checks a results file the way a user would trust it: it parses, every measured busbw recomputes
// from its median time, size and rank count, the data check found nothing wrong, and (on request)
// failures, settings and differences between settings are as expected. Exit 0 when all hold.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "results/results_document.hpp"

namespace {

using commtune::CaseResult;
using commtune::CaseStatus;

struct Expectations {
  int min_cases = 1;
  int nranks = 0;
  bool complete = true;
  std::set<std::string> failing_settings;   // may fail; every other case must measure
  std::vector<std::string> distinct_pairs;  // "settingA:settingB:collective:bytes" must differ
};

int failures = 0;

void fail(const std::string& what) {
  std::cerr << "results_check: " << what << "\n";
  ++failures;
}

void check_case(const CaseResult& r, const Expectations& e) {
  const std::string id = r.setting + " " + std::string(commtune::name_of(r.spec.collective)) + " " +
                         std::to_string(r.spec.bytes) + " " +
                         std::string(commtune::name_of(r.spec.placement));
  if (e.nranks && r.nranks != e.nranks) fail(id + ": nranks " + std::to_string(r.nranks));
  if (!r.measured()) {
    if (!e.failing_settings.count(r.setting)) fail(id + ": not measured: " + r.reason);
    if (r.reason.empty()) fail(id + ": failed without a reason");
    return;
  }
  if (r.wrong != 0) fail(id + ": #wrong = " + std::to_string(r.wrong));
  const double seconds = r.time_us.median * 1e-6;
  const double busbw = static_cast<double>(r.spec.bytes) / 1e9 / seconds *
                       commtune::traits_of(r.spec.collective).bus_factor(r.nranks);
  if (std::fabs(busbw - r.busbw_gbps) > 1e-9 * std::max(1.0, busbw)) fail(id + ": busbw does not recompute");
  const auto& s = r.time_us;
  if (!(s.min <= s.p5 && s.p5 <= s.median && s.median <= s.p95 && s.p95 <= s.max))
    fail(id + ": quantiles out of order");
  if (!(s.median_ci_low <= s.median && s.median <= s.median_ci_high)) fail(id + ": median outside its CI");
  if (s.count < 1) fail(id + ": no samples");
}

const CaseResult* find(const commtune::ResultsDocument& doc, const std::string& setting,
                       const std::string& coll, std::uint64_t bytes) {
  for (const auto& r : doc.cases)
    if (r.setting == setting && commtune::name_of(r.spec.collective) == coll && r.spec.bytes == bytes &&
        r.spec.placement == commtune::Placement::OutOfPlace && r.measured())
      return &r;
  return nullptr;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

bool overlap(const CaseResult& a, const CaseResult& b) {
  return a.time_us.median_ci_low <= b.time_us.median_ci_high &&
         b.time_us.median_ci_low <= a.time_us.median_ci_high;
}

void check_distinct(const commtune::ResultsDocument& doc, const std::string& spec) {
  const std::vector<std::string> parts = split(spec, ':');
  if (parts.size() != 4) return fail("bad --distinct " + spec);
  const auto* a = find(doc, parts[0], parts[2], std::stoull(parts[3]));
  const auto* b = find(doc, parts[1], parts[2], std::stoull(parts[3]));
  if (!a || !b) return fail("--distinct " + spec + ": case missing");
  std::cout << spec << ": " << a->time_us.median << " us vs " << b->time_us.median << " us\n";
  if (overlap(*a, *b)) fail("--distinct " + spec + ": median confidence intervals overlap");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: results_check FILE [--min-cases N] [--nranks N] [--incomplete] [--may-fail SETTING] "
                 "[--distinct A:B:COLLECTIVE:BYTES]\n";
    return 2;
  }
  Expectations e;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    const std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (flag == "--incomplete") {
      e.complete = false;
      continue;
    }
    ++i;
    if (flag == "--min-cases")
      e.min_cases = std::stoi(value);
    else if (flag == "--nranks")
      e.nranks = std::stoi(value);
    else if (flag == "--may-fail")
      e.failing_settings.insert(value);
    else if (flag == "--distinct")
      e.distinct_pairs.push_back(value);
    else
      return std::cerr << "unknown flag " << flag << "\n", 2;
  }
  try {
    const commtune::ResultsDocument doc = commtune::load_results(argv[1]);
    if (doc.complete != e.complete) fail(std::string("complete is ") + (doc.complete ? "true" : "false"));
    if (static_cast<int>(doc.cases.size()) < e.min_cases)
      fail("only " + std::to_string(doc.cases.size()) + " cases");
    for (const auto& r : doc.cases) check_case(r, e);
    for (const auto& spec : e.distinct_pairs) check_distinct(doc, spec);
    std::cout << argv[1] << ": " << doc.cases.size() << " cases checked, " << failures << " problems\n";
  } catch (const commtune::Error& err) {
    fail(err.what());
  }
  return failures == 0 ? 0 : 1;
}
