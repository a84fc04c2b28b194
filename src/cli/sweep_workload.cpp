#include "cli/sweep_workload.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "replay/replay_job.hpp"
#include "workload/workload.hpp"

namespace commtune {
namespace {

bool kept(const SweepOptions& o, Collective c) {
  return std::find(o.collectives.begin(), o.collectives.end(), c) != o.collectives.end();
}

// The element type carrying most of the step's bytes.
DataType main_type(const Workload& w, std::size_t& types) {
  std::map<DataType, double> bytes;
  for (const WorkloadCollective& c : w.collectives)
    bytes[c.datatype] += static_cast<double>(c.bytes) * static_cast<double>(c.count);
  types = bytes.size();
  return std::max_element(bytes.begin(), bytes.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

}  // namespace

void apply_workload(const WorkloadFlags& flags, SweepOptions& o) {
  if (flags.sizes_given) throw InputError("--workload sets the sizes: leave out -b, -e, -f and -i");
  if (flags.groups_given) throw InputError("--workload sets the groups (its calls' own): leave out --groups");
  const Workload w = read_workload_file(flags.path);
  if (!flags.collectives_given) o.collectives.clear();
  std::vector<Collective> runs;
  for (const WorkloadCollective& c : w.collectives)
    if ((!flags.collectives_given || kept(o, c.collective)) &&
        std::find(runs.begin(), runs.end(), c.collective) == runs.end())
      runs.push_back(c.collective);
  if (runs.empty()) throw InputError("--collectives: the workload " + flags.path + " runs none of them");
  o.collectives = runs;
  o.groups.clear();
  for (const WorkloadCollective& c : w.collectives) {
    if (!kept(o, c.collective)) continue;
    if (std::find(o.groups.begin(), o.groups.end(), c.group) == o.groups.end()) o.groups.push_back(c.group);
    const auto same =
        std::find_if(o.workload_sizes.begin(), o.workload_sizes.end(), [&](const WorkloadSize& s) {
          return s.collective == c.collective && s.bytes == c.bytes && s.group == c.group;
        });
    if (same != o.workload_sizes.end())
      same->count += static_cast<double>(c.count);
    else
      o.workload_sizes.push_back({c.collective, c.bytes, c.group, static_cast<double>(c.count)});
  }
  o.workload_file = flags.path;
  std::size_t types = 0;
  const DataType main = main_type(w, types);
  if (!flags.dtype_given) o.dtype = main;
  o.notes.push_back(
      "--workload " + flags.path + ": " + std::to_string(o.workload_sizes.size()) +
      " of the step's sizes on " + std::to_string(o.groups.size()) +
      " group spec(s) instead of a size range" +
      (types > 1 ? "; measured in " + std::string(name_of(o.dtype)) + ", the step's main type" : ""));
}

void check_workload_type(const WorkloadFlags& flags, const SweepOptions& options, bool host_backend) {
  if (flags.path.empty() || flags.dtype_given || !host_backend) return;
  if (options.dtype != DataType::BFloat16 && options.dtype != DataType::Float16) return;
  throw InputError("--workload " + flags.path + ": its main type is " + std::string(name_of(options.dtype)) +
                   ", which the MPI backend does not have: give -d float (the sizes stay the workload's)");
}

}  // namespace commtune
