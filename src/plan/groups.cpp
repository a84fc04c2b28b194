#include "plan/groups.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "core/errors.hpp"

namespace commtune {
namespace {

struct OpSpelling {
  std::string_view spelling;
  SplitOp op;
};

// nccl-tests tries the word, then the symbol, of each operator in this order.
constexpr std::array<OpSpelling, 8> kOpSpellings{{{"and", SplitOp::And},
                                                  {"&", SplitOp::And},
                                                  {"or", SplitOp::Or},
                                                  {"|", SplitOp::Or},
                                                  {"mod", SplitOp::Mod},
                                                  {"%", SplitOp::Mod},
                                                  {"div", SplitOp::Div},
                                                  {"/", SplitOp::Div}}};

constexpr std::uint32_t kMaxSplitValue = 0x7fffffff;  // nccl-tests keeps it in an int

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  const int lower = std::tolower(static_cast<unsigned char>(c));
  if (lower >= 'a' && lower <= 'f') return lower - 'a' + 10;
  return 99;
}

// All of `digits` in `base`, at least one digit, at most kMaxSplitValue.
std::optional<std::uint32_t> whole_number(std::string_view digits, int base) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    const int d = digit_value(c);
    if (d >= base) return std::nullopt;
    value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    if (value > kMaxSplitValue) return std::nullopt;
  }
  return static_cast<std::uint32_t>(value);
}

// nccl-tests' parseInt: "0b" binary, else as strtoul(s, 0) reads it (0x hex, 0 octal, decimal);
// here the whole text must be the number.
std::optional<std::uint32_t> split_value(std::string_view text) {
  text = trimmed(text);
  if (starts_with_nocase(text, "0b")) return whole_number(text.substr(2), 2);
  if (starts_with_nocase(text, "0x")) return whole_number(text.substr(2), 16);
  if (text.size() > 1 && text.front() == '0') return whole_number(text.substr(1), 8);
  return whole_number(text, 10);
}

std::string_view op_name(SplitOp op) {
  switch (op) {
    case SplitOp::And:
      return "AND";
    case SplitOp::Or:
      return "OR";
    case SplitOp::Mod:
      return "MOD";
    case SplitOp::Div:
      return "DIV";
  }
  return "AND";
}

[[noreturn]] void bad_spec(std::string_view text, const std::string& input, const std::string& why) {
  throw InputError((input.empty() ? "" : input + ": ") + "'" + std::string(text) + "' " + why +
                   " (a group spec is world, intra-node, inter-node, or nccl-tests' split: AND, OR, MOD "
                   "or DIV and a value, e.g. 'MOD 8')");
}

std::optional<GroupKind> named_kind(std::string_view text) {
  if (text.size() > 10) return std::nullopt;
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "world") return GroupKind::World;
  if (lower == "intra-node") return GroupKind::IntraNode;
  if (lower == "inter-node") return GroupKind::InterNode;
  return std::nullopt;
}

}  // namespace

std::string GroupSpec::name() const {
  switch (kind) {
    case GroupKind::World:
      return "world";
    case GroupKind::IntraNode:
      return "intra-node";
    case GroupKind::InterNode:
      return "inter-node";
    case GroupKind::Split:
      return std::string(op_name(op)) + " " + std::to_string(value);
  }
  return "world";
}

std::uint32_t split_color(SplitOp op, std::uint32_t value, std::uint32_t rank) {
  switch (op) {
    case SplitOp::And:
      return rank & value;
    case SplitOp::Or:
      return rank | value;
    case SplitOp::Mod:
      return rank % value;
    case SplitOp::Div:
      return rank / value;
  }
  return 0;
}

GroupSpec parse_group_spec(std::string_view text, const std::string& input) {
  const std::string_view spec = trimmed(text);
  if (const std::optional<GroupKind> kind = named_kind(spec)) return GroupSpec{.kind = *kind};
  for (const OpSpelling& o : kOpSpellings) {
    if (!starts_with_nocase(spec, o.spelling)) continue;
    const std::optional<std::uint32_t> value = split_value(spec.substr(o.spelling.size()));
    if (!value) bad_spec(text, input, "has no whole number from 0 to 2147483647 after its operator");
    if (*value == 0 && (o.op == SplitOp::Mod || o.op == SplitOp::Div)) bad_spec(text, input, "divides by 0");
    return GroupSpec{.kind = GroupKind::Split, .op = o.op, .value = *value};
  }
  bad_spec(text, input, "is not a group spec");
}

std::string written_group_name(std::string_view text, const std::string& input) {
  const std::string name = parse_group_spec(text, input).name();
  if (name != text || name == "world")
    throw InputError(input + ": a group spec other than world, as commtune writes it ('" + name + "')");
  return name;
}

std::vector<GroupSpec> parse_group_specs(std::string_view text, const std::string& input) {
  std::vector<GroupSpec> specs;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const GroupSpec spec = parse_group_spec(text.substr(start, comma - start), input);
    if (std::find(specs.begin(), specs.end(), spec) != specs.end())
      throw InputError(input + ": group spec '" + spec.name() + "' is listed twice");
    specs.push_back(spec);
    start = comma + 1;
  }
  return specs;
}

GroupSpec parse_split_mask(std::string_view text, const std::string& input) {
  std::string_view digits = trimmed(text);
  if (starts_with_nocase(digits, "0x")) digits.remove_prefix(2);
  const std::optional<std::uint32_t> value = whole_number(digits, 16);
  if (!value) throw InputError(input + ": '" + std::string(text) + "' is not a hexadecimal mask");
  return GroupSpec{.kind = GroupKind::Split, .op = SplitOp::And, .value = *value};
}

std::vector<std::uint32_t> group_colors(const GroupSpec& spec, const std::vector<int>& node_of_rank) {
  std::vector<std::uint32_t> colors(node_of_rank.size(), 0);
  std::map<int, std::uint32_t> seen_on_node;
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const std::uint32_t local_rank = seen_on_node[node_of_rank[r]]++;
    switch (spec.kind) {
      case GroupKind::World:
        break;
      case GroupKind::IntraNode:
        colors[r] = static_cast<std::uint32_t>(node_of_rank[r]);
        break;
      case GroupKind::InterNode:
        colors[r] = local_rank;
        break;
      case GroupKind::Split:
        colors[r] = split_color(spec.op, spec.value, static_cast<std::uint32_t>(r));
        break;
    }
  }
  return colors;
}

GroupLayout layout_groups(const GroupSpec& spec, const std::vector<int>& node_of_rank) {
  const std::vector<std::uint32_t> colors = group_colors(spec, node_of_rank);
  std::map<std::uint32_t, RankGroup> by_color;
  for (std::size_t r = 0; r < colors.size(); ++r) {
    RankGroup& g = by_color[colors[r]];
    g.color = colors[r];
    g.ranks.push_back(static_cast<int>(r));
    if (std::find(g.nodes.begin(), g.nodes.end(), node_of_rank[r]) == g.nodes.end())
      g.nodes.push_back(node_of_rank[r]);
  }
  GroupLayout layout{.spec = spec, .groups = {}, .group_of_rank = std::vector<int>(colors.size(), 0)};
  for (auto& [color, group] : by_color) {
    std::sort(group.nodes.begin(), group.nodes.end());
    for (int r : group.ranks)
      layout.group_of_rank[static_cast<std::size_t>(r)] = static_cast<int>(layout.groups.size());
    layout.groups.push_back(std::move(group));
  }
  return layout;
}

std::size_t GroupLayout::largest_group() const {
  std::size_t most = 0;
  for (const RankGroup& g : groups) most = std::max(most, g.ranks.size());
  return most;
}

std::size_t GroupLayout::most_nodes() const {
  std::size_t most = 0;
  for (const RankGroup& g : groups) most = std::max(most, g.nodes.size());
  return most;
}

bool GroupLayout::uniform() const {
  return std::all_of(groups.begin(), groups.end(),
                     [&](const RankGroup& g) { return g.ranks.size() == groups.front().ranks.size(); });
}

std::string GroupLayout::shape() const {
  return std::to_string(groups.size()) + "x" + std::to_string(largest_group()) + "x" +
         std::to_string(most_nodes());
}

std::vector<std::vector<double>> slowest_per_group(const GroupLayout& layout,
                                                   const std::vector<std::vector<double>>& rank_seconds) {
  std::vector<std::vector<double>> out;
  for (const RankGroup& g : layout.groups) {
    std::vector<double> slowest;
    for (int r : g.ranks) {
      const std::vector<double>& own = rank_seconds.at(static_cast<std::size_t>(r));
      if (slowest.empty()) slowest.assign(own.size(), 0.0);
      if (own.size() != slowest.size())
        throw InputError("ranks of one group timed different numbers of iterations");
      for (std::size_t i = 0; i < own.size(); ++i) slowest[i] = std::max(slowest[i], own[i]);
    }
    out.push_back(std::move(slowest));
  }
  return out;
}

std::vector<int> node_numbers(const std::vector<std::string>& host_of_rank) {
  std::map<std::string, int> number;
  std::vector<int> out;
  for (const std::string& host : host_of_rank) {
    const auto [it, added] = number.emplace(host, static_cast<int>(number.size()));
    out.push_back(it->second);
  }
  return out;
}

}  // namespace commtune
