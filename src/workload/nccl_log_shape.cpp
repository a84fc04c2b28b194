#include "workload/nccl_log_shape.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

template <typename Label>
std::vector<int> lowest_rank_of_group(const std::vector<Label>& label_of_rank) {
  std::map<Label, int> lowest;
  std::vector<int> out;
  for (std::size_t r = 0; r < label_of_rank.size(); ++r)
    out.push_back(lowest.emplace(label_of_rank[r], static_cast<int>(r)).first->second);
  return out;
}

// The job as its world communicator tells it: each (process, device)'s global rank and host.
struct World {
  std::map<std::pair<std::size_t, int>, int> rank_of;
  std::vector<std::string> host_of_rank;
  bool complete = false;  // every rank 0..W-1 once
};

World world_of(const NcclScan& scan, int world_ranks) {
  World world;
  const auto first = std::find_if(scan.comms.begin(), scan.comms.end(), [&](const ScannedComm& c) {
    return c.nranks == world_ranks && c.rank >= 0 && !c.group.empty();
  });
  if (first == scan.comms.end()) return world;
  world.host_of_rank.assign(static_cast<std::size_t>(world_ranks), std::string());
  std::set<int> seen;
  for (const ScannedComm& c : scan.comms) {
    if (c.group != first->group) continue;
    world.rank_of[{c.process, c.cuda_dev}] = c.rank;
    world.host_of_rank[static_cast<std::size_t>(c.rank)] = scan.processes[c.process].host;
    seen.insert(c.rank);
  }
  world.complete = static_cast<int>(seen.size()) == world_ranks && world.rank_of.size() == seen.size();
  return world;
}

struct CommGroup {
  std::vector<std::size_t> comms;  // its members' communicators
  std::vector<int> ranks;          // their global ranks, in the order of `comms`
  int nranks = 0;
  bool used = false;  // a measured call was made on it
};

// The communicators of every rank grouped by their init line's identity, in order of first
// appearance; empty when a communicator cannot be placed (no init line, a rank not in the world).
std::optional<std::vector<CommGroup>> groups_of(const NcclScan& scan, const World& world) {
  std::vector<CommGroup> groups;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < scan.comms.size(); ++i) {
    const ScannedComm& c = scan.comms[i];
    const bool used = c.calls.calls() > 0;
    if (c.group.empty()) {
      if (used) return std::nullopt;
      continue;
    }
    const auto rank = world.rank_of.find({c.process, c.cuda_dev});
    if (rank == world.rank_of.end()) return std::nullopt;
    const auto [it, added] = index.emplace(c.group, groups.size());
    if (added) groups.push_back(CommGroup{.comms = {}, .ranks = {}, .nranks = c.nranks, .used = false});
    CommGroup& g = groups[it->second];
    g.comms.push_back(i);
    g.ranks.push_back(rank->second);
    g.used = g.used || used;
  }
  for (const CommGroup& g : groups)
    if (g.used && static_cast<int>(g.ranks.size()) != g.nranks) return std::nullopt;
  return groups;
}

std::string process_words(const NcclScan& scan, std::size_t process) {
  const ScannedProcess& p = scan.processes[process];
  return "'" + excerpt(p.file, 200) + "' (" + excerpt(p.host, 64) + " pid " + std::to_string(p.pid) + ")";
}

// Groups of one size that do not overlap, taken in order, until they cover the job.
CommShape partition_shape(const NcclScan& scan, std::vector<CommGroup>& groups, std::size_t first,
                          const World& world, std::vector<bool>& taken) {
  const int world_ranks = static_cast<int>(world.host_of_rank.size());
  std::vector<int> group_of_rank(world.host_of_rank.size(), -1);
  int covered = 0;
  for (std::size_t k = first; k < groups.size() && covered < world_ranks; ++k) {
    const CommGroup& g = groups[k];
    if (taken[k] || !g.used || g.nranks != groups[first].nranks) continue;
    if (std::any_of(g.ranks.begin(), g.ranks.end(), [&](int r) { return group_of_rank[r] >= 0; })) continue;
    for (int r : g.ranks) group_of_rank[static_cast<std::size_t>(r)] = static_cast<int>(k);
    covered += g.nranks;
    taken[k] = true;
  }
  const CommGroup& lead = groups[first];
  const std::size_t rep = lead.comms[static_cast<std::size_t>(
      std::min_element(lead.ranks.begin(), lead.ranks.end()) - lead.ranks.begin())];
  const std::optional<GroupSpec> spec =
      covered == world_ranks ? spec_of_partition(group_of_rank, node_numbers(world.host_of_rank))
                             : std::nullopt;
  if (!spec)
    throw InputError(process_words(scan, scan.comms[rep].process) + ": the " + std::to_string(lead.nranks) +
                     "-rank communicators split the job's " + std::to_string(world_ranks) +
                     " ranks in a shape commtune cannot express (not world, intra-node, inter-node or an "
                     "nccl-tests split: DIV, MOD, AND, OR)");
  return CommShape{.comm = rep, .group = *spec, .group_ranks = lead.nranks};
}

// One communicator seen by one process, its shape guessed: its groups are consecutive ranks
// (DIV n) unless the ranks it has say strided (MOD W/n).
CommShape guessed_shape(const ScannedComm& c, int global_rank, int world_ranks, std::string& note) {
  if (c.nranks == world_ranks) return CommShape{.comm = 0, .group = GroupSpec{}, .group_ranks = c.nranks};
  if (world_ranks % c.nranks != 0)
    throw InputError("a " + std::to_string(c.nranks) + "-rank communicator does not divide the job's " +
                     std::to_string(world_ranks) +
                     " ranks: give every rank's log (NCCL_DEBUG_FILE=...%h.%p)");
  const auto n = static_cast<std::uint32_t>(c.nranks);
  const auto groups = static_cast<std::uint32_t>(world_ranks / c.nranks);
  GroupSpec spec{.kind = GroupKind::Split, .op = SplitOp::Div, .value = n};
  if (global_rank >= 0 && c.rank >= 0 && c.rank != global_rank % c.nranks &&
      c.rank == global_rank / static_cast<int>(groups))
    spec = GroupSpec{.kind = GroupKind::Split, .op = SplitOp::Mod, .value = groups};
  note += " " + std::to_string(c.nranks) + " ranks: " + spec.name() + ";";
  return CommShape{.comm = 0, .group = spec, .group_ranks = c.nranks};
}

void infer_shapes(const NcclScan& scan, const World& world, NcclShapes& out, const std::string& why) {
  std::size_t process = 0;
  int global_rank = -1;
  for (const auto& [endpoint, rank] : world.rank_of)
    if (global_rank < 0 || rank < global_rank)
      std::tie(process, global_rank) = std::pair{endpoint.first, rank};
  if (global_rank < 0 && !scan.comms.empty()) process = scan.comms.front().process;
  std::string note = "shapes inferred from one process's log, " + process_words(scan, process) + " (" + why +
                     "); groups of consecutive ranks assumed unless its ranks say strided:";
  for (std::size_t i = 0; i < scan.comms.size(); ++i) {
    const ScannedComm& c = scan.comms[i];
    if (c.process != process || c.calls.calls() == 0) continue;
    CommShape shape = guessed_shape(c, global_rank, out.world_ranks, note);
    shape.comm = i;
    out.shapes.push_back(shape);
  }
  out.notes.push_back(note.substr(0, note.size() - 1));
}

}  // namespace

std::optional<GroupSpec> spec_of_partition(const std::vector<int>& group_of_rank,
                                           const std::vector<int>& node_of_rank) {
  const std::vector<int> want = lowest_rank_of_group(group_of_rank);
  const auto n = static_cast<std::uint32_t>(want.size());
  const auto fits = [&](const GroupSpec& spec) {
    return lowest_rank_of_group(group_colors(spec, node_of_rank)) == want;
  };
  const auto size = static_cast<std::uint32_t>(std::count(want.begin(), want.end(), 0));
  std::vector<GroupSpec> candidates = {
      {.kind = GroupKind::World}, {.kind = GroupKind::IntraNode}, {.kind = GroupKind::InterNode}};
  candidates.push_back({.kind = GroupKind::Split, .op = SplitOp::Div, .value = size});
  if (size > 0 && n % size == 0)
    candidates.push_back({.kind = GroupKind::Split, .op = SplitOp::Mod, .value = n / size});
  for (const GroupSpec& spec : candidates)
    if (fits(spec)) return spec;
  std::uint32_t span = 1;
  while (span < n) span <<= 1;
  for (const SplitOp op : {SplitOp::And, SplitOp::Or})
    for (std::uint32_t v = 0; n <= 4096 && v < span; ++v)
      if (fits({.kind = GroupKind::Split, .op = op, .value = v}))
        return GroupSpec{.kind = GroupKind::Split, .op = op, .value = v};
  return std::nullopt;
}

NcclShapes find_shapes(const NcclScan& scan, int world_hint) {
  NcclShapes out;
  out.world_ranks = world_hint;
  for (const ScannedComm& c : scan.comms) out.world_ranks = std::max(out.world_ranks, c.nranks);
  const World world = world_of(scan, out.world_ranks);
  if (!world.complete) {
    infer_shapes(scan, world, out, "not every rank's world communicator is in the logs");
    return out;
  }
  std::optional<std::vector<CommGroup>> groups = groups_of(scan, world);
  if (!groups) {
    infer_shapes(scan, world, out, "a communicator without every rank's init line");
    return out;
  }
  std::vector<bool> taken(groups->size(), false);
  for (std::size_t k = 0; k < groups->size(); ++k)
    if ((*groups)[k].used && !taken[k]) out.shapes.push_back(partition_shape(scan, *groups, k, world, taken));
  return out;
}

}  // namespace commtune
