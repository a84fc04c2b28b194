#include "workload/workload_checks.hpp"

#include <algorithm>
#include <array>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

constexpr std::array<const char*, 3> kSourceKinds{"nccl-log", "torch-trace", "preset"};

std::string field(const std::string& where, const char* key) { return where + "." + key; }

// The one size a DIV or MOD split gives every group of `world` ranks; 0 when the groups differ.
std::int64_t split_group_size(const GroupSpec& spec, std::int64_t world) {
  const auto v = static_cast<std::int64_t>(spec.value);
  if (spec.op == SplitOp::Div) return v >= world ? world : (world % v == 0 ? v : 0);
  return v >= world ? 1 : (world % v == 0 ? world / v : 0);
}

void check_group(const WorkloadCollective& c, int world_ranks, const std::string& where) {
  const std::string path = field(where, "group_ranks");
  const std::string ranks = std::to_string(c.group_ranks);
  const std::string world = std::to_string(world_ranks);
  if (c.group.is_world()) {
    if (c.group_ranks != world_ranks)
      throw InputError(path + ": " + ranks + ", but the world group has every rank (world_ranks " + world +
                       ")");
    return;
  }
  const bool div_or_mod =
      c.group.kind == GroupKind::Split && (c.group.op == SplitOp::Div || c.group.op == SplitOp::Mod);
  if (!div_or_mod) {
    if (world_ranks % c.group_ranks != 0)
      throw InputError(path + ": " + ranks + " does not divide world_ranks " + world + " into equal groups");
    return;
  }
  const std::int64_t size = split_group_size(c.group, world_ranks);
  if (size == 0)
    throw InputError(field(where, "group") + ": " + quote_text(c.group.name()) + " cuts world_ranks " +
                     world + " into groups of different sizes");
  if (size != c.group_ranks)
    throw InputError(path + ": " + ranks + ", but " + quote_text(c.group.name()) + " on " + world +
                     " ranks makes groups of " + std::to_string(size));
}

void check_size(const WorkloadCollective& c, const std::string& where) {
  const std::size_t unit = size_granularity(c.collective, c.datatype, c.group_ranks);
  if (c.bytes % unit == 0) return;
  const std::string what =
      size_is_total(c.collective)
          ? std::to_string(unit) + "-byte units (" + std::string(name_of(c.collective)) + ": every one of " +
                std::to_string(c.group_ranks) +
                " ranks' shares a whole number of 16-byte units, as nccl-tests sizes it)"
          : std::to_string(unit) + "-byte elements (" + std::string(name_of(c.datatype)) + ")";
  throw InputError(field(where, "bytes") + ": " + std::to_string(c.bytes) + " is not a whole number of " +
                   what);
}

void check_range(std::int64_t value, std::int64_t low, std::int64_t high, const std::string& path) {
  if (value < low || value > high)
    throw InputError(path + ": expected an integer from " + std::to_string(low) + " to " +
                     std::to_string(high) + ", got " + std::to_string(value));
}

}  // namespace

bool is_workload_source_kind(const std::string& kind) {
  for (const char* known : kSourceKinds)
    if (kind == known) return true;
  return false;
}

std::string workload_source_kinds() {
  std::string out;
  for (const char* known : kSourceKinds) out += (out.empty() ? "" : ", ") + std::string(known);
  return out;
}

void check_collective(const WorkloadCollective& c, int world_ranks, const std::string& where) {
  check_group(c, world_ranks, where);
  check_size(c, where);
}

void check_workload(const Workload& w, const std::string& origin) {
  check_range(w.world_ranks, 2, kMaxWorldRanks, origin + ": world_ranks");
  if (w.collectives.empty())
    throw InputError(origin + ": collectives: no collective (a step has at least one)");
  for (std::size_t i = 0; i < w.collectives.size(); ++i) {
    const WorkloadCollective& c = w.collectives[i];
    const std::string where = origin + ": collectives[" + std::to_string(i) + "]";
    check_range(c.group_ranks, 2, w.world_ranks, field(where, "group_ranks"));
    check_range(static_cast<std::int64_t>(std::min<std::uint64_t>(c.bytes, kMaxWorkloadBytes + 1)), 1,
                kMaxWorkloadBytes, field(where, "bytes"));
    check_range(static_cast<std::int64_t>(std::min<std::uint64_t>(c.count, kMaxWorkloadCount + 1)), 1,
                kMaxWorkloadCount, field(where, "count"));
    check_collective(c, w.world_ranks, where);
  }
  if (!is_workload_source_kind(w.source.kind))
    throw InputError(origin + ": source.kind: unknown source " + quote_text(w.source.kind) +
                     " (known: " + workload_source_kinds() + ")");
}

}  // namespace commtune
