#pragma once
// Communicator groups (`sweep --groups`): which ranks measure together. A training job runs many
// smaller communicators at once (tensor-parallel groups inside each node, data-parallel groups
// across nodes); a group spec says how the job's ranks split into them, and every group runs each
// case at the same time as the others.
// - `world`: one group of every rank (the default).
// - `intra-node`: one group per node; `inter-node`: one group per local rank (local rank r of
//   every node).
// - nccl-tests' NCCL_TESTS_SPLIT syntax, with its meaning: color = rank OP value, ranks of one
//   color form a group. OP is AND / &, OR / |, MOD / %, DIV / / (any case, spaces allowed before
//   the value); the value is decimal, 0x hex, 0b binary (or, as C's strtoul reads it, 0-prefixed
//   octal). `MOD 8` on 8-GPU nodes is 8 groups of one GPU per node, `DIV 8` one group per node.
// Pure: the ranks' nodes come from the backend (PlanLimits::node_of_rank).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commtune {

enum class GroupKind { World, IntraNode, InterNode, Split };
enum class SplitOp { And, Or, Mod, Div };

struct GroupSpec {
  GroupKind kind = GroupKind::World;
  SplitOp op = SplitOp::And;  // Split only
  std::uint32_t value = 0;    // Split only
  // The canonical spelling: "world", "intra-node", "inter-node", "MOD 8" (nccl-tests' operator name
  // and the value in decimal). It names the spec in results, tables and tune decisions.
  std::string name() const;
  bool is_world() const { return kind == GroupKind::World; }
  bool operator==(const GroupSpec&) const = default;
};

inline std::string name_of(const GroupSpec& spec) { return spec.name(); }

// Whether every spec is the world (a sweep without --groups).
inline bool world_only(const std::vector<GroupSpec>& specs) {
  for (const GroupSpec& s : specs)
    if (!s.is_world()) return false;
  return true;
}

// A setting's cases on one group spec as a series of their own: "SETTING", or "SETTING [SPEC]"
// for another spec than world (the table's sections and peaks, compare's cases).
inline std::string series_name(const std::string& setting, const GroupSpec& group) {
  return group.is_world() ? setting : setting + " [" + group.name() + "]";
}

// nccl-tests' color of `rank` under `op value` (NCCL_TESTS_SPLIT, src/common.cu).
std::uint32_t split_color(SplitOp op, std::uint32_t value, std::uint32_t rank);

// One spec, as typed. Throws InputError naming `input` ("--groups"; empty: the caller names it) and
// the spec for anything else, and for MOD 0 / DIV 0.
GroupSpec parse_group_spec(std::string_view text, const std::string& input);
// A spec as commtune writes it in its files: its canonical name, other than world. Throws
// InputError naming `input` otherwise.
std::string written_group_name(std::string_view text, const std::string& input);
// Comma-separated specs, each once ("world,intra-node,MOD 2").
std::vector<GroupSpec> parse_group_specs(std::string_view text, const std::string& input);
// The value of NCCL_TESTS_SPLIT_MASK (hex, as nccl-tests reads it: color = rank & value) as a spec.
GroupSpec parse_split_mask(std::string_view text, const std::string& input);

struct RankGroup {
  std::uint32_t color = 0;
  std::vector<int> ranks;  // job ranks, ascending (the group's rank order, as MPI_Comm_split's key)
  std::vector<int> nodes;  // the nodes its ranks are on, ascending
};

// How one spec splits a job: its groups in ascending color order.
struct GroupLayout {
  GroupSpec spec;
  std::vector<RankGroup> groups;
  std::vector<int> group_of_rank;  // index into groups, per job rank

  std::size_t largest_group() const;  // most ranks in one group
  std::size_t most_nodes() const;     // most nodes under one group
  bool uniform() const;               // every group has as many ranks
  // "4x2x1": groups x ranks per group x nodes per group (the largest group's, when they differ).
  std::string shape() const;
};

// The groups of `spec` over a job whose rank r runs on node node_of_rank[r] (nodes numbered from
// 0 in order of their first rank). The color of each rank: World 0, IntraNode its node, InterNode
// its local rank (how many ranks before it share its node), Split split_color(rank).
std::vector<std::uint32_t> group_colors(const GroupSpec& spec, const std::vector<int>& node_of_rank);
GroupLayout layout_groups(const GroupSpec& spec, const std::vector<int>& node_of_rank);

// Each group's per-iteration seconds while all groups ran at once: per iteration, the slowest of
// its ranks (a collective ends when its last rank does). `rank_seconds[r]`: rank r's seconds.
std::vector<std::vector<double>> slowest_per_group(const GroupLayout& layout,
                                                   const std::vector<std::vector<double>>& rank_seconds);

// Nodes numbered in order of their first rank, from any per-rank node key (a host name).
std::vector<int> node_numbers(const std::vector<std::string>& host_of_rank);

}  // namespace commtune
