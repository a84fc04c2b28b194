#include "replay/replay_job.hpp"

#include <algorithm>
#include <cctype>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {

std::vector<StepCall> step_calls(const Workload& workload) {
  std::vector<StepCall> calls;
  for (const WorkloadCollective& w : workload.collectives) {
    Case c;
    c.index = calls.size();
    c.collective = w.collective;
    c.bytes = w.bytes;
    c.dtype = w.datatype;
    c.op = w.op;
    c.count = buffer_counts(w.collective, w.bytes, w.datatype, w.group_ranks).count;
    c.group = w.group;
    calls.push_back(StepCall{.spec = c, .repeat = w.count});
  }
  return calls;
}

std::vector<GroupSpec> step_groups(const Workload& workload) {
  std::vector<GroupSpec> specs;
  for (const WorkloadCollective& w : workload.collectives)
    if (std::find(specs.begin(), specs.end(), w.group) == specs.end()) specs.push_back(w.group);
  return specs;
}

namespace {

const GroupLayout& layout_for(const GroupSpec& spec, const std::vector<GroupLayout>& layouts) {
  for (const GroupLayout& layout : layouts)
    if (layout.spec == spec) return layout;
  throw InputError("no layout for group spec '" + spec.name() + "'");
}

}  // namespace

void check_job_fits(const Workload& workload, const std::string& origin, int nranks,
                    const std::vector<GroupLayout>& layouts) {
  if (workload.world_ranks != nranks)
    throw InputError(origin + ": the workload is a job of " + std::to_string(workload.world_ranks) +
                     " ranks, this run has " + std::to_string(nranks) + " (launch it on as many ranks)");
  for (std::size_t i = 0; i < workload.collectives.size(); ++i) {
    const WorkloadCollective& w = workload.collectives[i];
    const GroupLayout& layout = layout_for(w.group, layouts);
    for (const RankGroup& g : layout.groups)
      if (static_cast<int>(g.ranks.size()) != w.group_ranks)
        throw InputError(origin + ": collectives[" + std::to_string(i) + "]: group '" + w.group.name() +
                         "' has groups of " + std::to_string(g.ranks.size()) +
                         " ranks on this job's nodes (" + layout.shape() + "), the workload says " +
                         std::to_string(w.group_ranks));
  }
}

void check_price(const Price& price) {
  if (!(price.per_gpu_hour > 0 && price.per_gpu_hour <= 1e6))
    throw InputError("--price-per-gpu-hour must be a price in (0, 1000000] per GPU hour");
  const std::string& c = price.currency;
  const bool letters = c.size() == 3 && std::all_of(c.begin(), c.end(), [](char ch) {
                         return std::isupper(static_cast<unsigned char>(ch)) != 0;
                       });
  if (!letters)
    throw InputError("--currency must be 3 capital letters (ISO 4217: USD, EUR, CNY), got " + quote_text(c));
  if (price.steps_per_run > 1000000000000ULL)
    throw InputError("--steps-per-run must be from 1 to 1000000000000");
}

}  // namespace commtune
