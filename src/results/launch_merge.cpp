#include "results/launch_merge.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/errors.hpp"

namespace commtune {
namespace {

using LaunchCaseKey =
    std::tuple<std::string, Collective, std::uint64_t, DataType, ReduceOp, int, Placement, int>;

LaunchCaseKey key_of(const CaseResult& r) {
  return {r.setting, r.spec.collective, r.spec.bytes,     r.spec.dtype,
          r.spec.op, r.spec.root,       r.spec.placement, r.nranks};
}

std::map<LaunchCaseKey, const CaseResult*> index_of(const ResultsDocument& d) {
  std::map<LaunchCaseKey, const CaseResult*> out;
  for (const CaseResult& r : d.cases) out[key_of(r)] = &r;
  return out;
}

std::vector<std::string> setting_names(const ResultsDocument& d) {
  std::vector<std::string> out;
  for (const Setting& s : d.settings) out.push_back(s.name);
  return out;
}

void check_same_plan(const ResultsDocument& first, const std::string& first_origin,
                     const ResultsDocument& other, const std::string& origin) {
  const std::string versus =
      " than " + first_origin + " (tune several results only of the same sweep, launched again)";
  if (other.backend != first.backend)
    throw InputError(origin + ": another backend (" + std::string(name_of(other.backend)) + ")" + versus);
  if (setting_names(other) != setting_names(first)) throw InputError(origin + ": other settings" + versus);
  const auto a = index_of(first), b = index_of(other);
  if (a.size() != b.size() || !std::equal(a.begin(), a.end(), b.begin(),
                                          [](const auto& x, const auto& y) { return x.first == y.first; }))
    throw InputError(origin + ": other cases (sizes, collectives, placements or rank count)" + versus);
}

std::vector<double> runs_of(const CaseResult& r) {
  return r.run_medians_us.empty() ? std::vector<double>{r.time_us.median} : r.run_medians_us;
}

CaseResult merge_case(const std::vector<const CaseResult*>& launches,
                      const std::vector<std::string>& origins) {
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (launches[i]->status != CaseStatus::Ok) {
      CaseResult bad = *launches[i];
      bad.reason = origins[i] + ": " + bad.reason;
      return bad;
    }
  std::vector<const CaseResult*> by_median = launches;
  std::sort(by_median.begin(), by_median.end(),
            [](auto* x, auto* y) { return x->time_us.median < y->time_us.median; });
  CaseResult out = *by_median[(by_median.size() - 1) / 2];
  out.run_medians_us.clear();
  out.run_nccl_tests_us.clear();
  for (const CaseResult* r : launches) {
    const std::vector<double> runs = runs_of(*r);
    out.run_medians_us.insert(out.run_medians_us.end(), runs.begin(), runs.end());
  }
  return out;
}

}  // namespace

ResultsDocument merge_launches(const std::vector<ResultsDocument>& documents,
                               const std::vector<std::string>& origins) {
  if (documents.empty() || documents.size() != origins.size())
    throw Error("merge_launches: one origin per document, at least one");
  for (std::size_t i = 1; i < documents.size(); ++i)
    check_same_plan(documents[0], origins[0], documents[i], origins[i]);
  ResultsDocument out = documents[0];
  out.complete =
      std::all_of(documents.begin(), documents.end(), [](const ResultsDocument& d) { return d.complete; });
  std::vector<std::map<LaunchCaseKey, const CaseResult*>> indexes;
  for (const ResultsDocument& d : documents) indexes.push_back(index_of(d));
  for (CaseResult& r : out.cases) {
    std::vector<const CaseResult*> launches;
    for (const auto& index : indexes) launches.push_back(index.at(key_of(r)));
    r = merge_case(launches, origins);
  }
  return out;
}

}  // namespace commtune
