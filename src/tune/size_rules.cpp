#include "tune/export_plan.hpp"

#include <algorithm>

#include "plan/sizes.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "knobs/ompi_algorithms.hpp"

namespace commtune {
namespace {

std::vector<Collective> collectives_of(const Recommendation& rec) {
  std::vector<Collective> out;
  for (const auto& d : rec.sizes)
    if (std::find(out.begin(), out.end(), d.collective) == out.end()) out.push_back(d.collective);
  return out;
}

std::optional<std::string> token_for(const Setting& s, const char* knob, NcclListKind kind, Collective c) {
  const auto it = s.knobs.find(knob);
  if (it == s.knobs.end()) return std::nullopt;
  const auto entry = entry_for(parse_nccl_list(it->second, kind), c);
  return entry ? single_token_lowercase(*entry) : std::nullopt;
}

void append_merged(std::vector<TunerCsvRow>& rows, const TunerCsvRow& row) {
  if (!rows.empty()) {
    TunerCsvRow& last = rows.back();
    if (last.collective == row.collective && last.algorithm == row.algorithm &&
        last.protocol == row.protocol && last.channels == row.channels && last.nnodes == row.nnodes &&
        last.nranks == row.nranks && last.max_bytes + 1 == row.min_bytes) {
      last.max_bytes = row.max_bytes;
      return;
    }
  }
  rows.push_back(row);
}

int knob_int(const Setting& s, const std::string& name) {
  const auto it = s.knobs.find(name);
  if (it == s.knobs.end()) return 0;
  try {
    return std::stoi(it->second);
  } catch (const std::exception&) {
    return 0;
  }
}

OmpiRule ompi_rule_for(const SizeBucket& b, const Recommendation& rec, Collective c) {
  OmpiRule rule{b.min_bytes, 0, 0, 0};
  const Setting* s = b.decision->winner.empty() ? nullptr : rec.find_setting(b.decision->winner);
  const std::string stem = "coll_tuned_" + ompi_collective_key(c) + "_algorithm";
  if (!s || !s->knobs.count(stem)) return rule;
  rule.algorithm = ompi_algorithm_number(c, s->knobs.at(stem)).value_or(0);
  rule.segment_size = knob_int(*s, stem + "_segmentsize");
  rule.fanout = std::max(knob_int(*s, stem + "_tree_fanout"), knob_int(*s, stem + "_chain_fanout"));
  return rule;
}

bool same_choice(const OmpiRule& a, const OmpiRule& b) {
  return a.algorithm == b.algorithm && a.fanout == b.fanout && a.segment_size == b.segment_size;
}

std::vector<OmpiRule> ompi_rules_for(const Recommendation& rec, Collective c, const std::string& group) {
  std::vector<OmpiRule> rules;
  const std::vector<SizeBucket> buckets = size_buckets(rec, c, group);
  for (const SizeBucket& b : buckets) {
    OmpiRule rule = ompi_rule_for(b, rec, c);
    if (rules.empty()) rule.min_bytes = 0;
    if (rules.empty() || !same_choice(rules.back(), rule)) rules.push_back(rule);
  }
  if (!rules.empty() && rules.back().algorithm != 0) rules.push_back({buckets.back().max_bytes + 1, 0, 0, 0});
  return rules;
}

bool forces(const std::vector<OmpiRule>& rules) {
  return std::any_of(rules.begin(), rules.end(), [](const OmpiRule& r) { return r.algorithm != 0; });
}

// Open MPI applies a section from its communicator size up to the next section's, and the
// smallest section below it too: once one shape forces an algorithm for `c`, every measured shape
// gets a section of its own (Open MPI's own decision where nothing wins), or the forced rules
// would reach communicators they were not measured on.
bool any_shape_forces(const Recommendation& rec, Collective c) {
  for (const GroupShape& shape : shapes_of(rec))
    if (forces(ompi_rules_for(rec, c, shape.spec))) return true;
  return false;
}

void append_shape_rows(std::vector<TunerCsvRow>& rows, const Recommendation& rec, const GroupShape& shape,
                       Collective c, std::vector<std::string>& notes) {
  const int nnodes = shape.is_world() ? rec.nnodes : shape.nnodes;
  const int nranks = shape.is_world() ? rec.nranks : shape.nranks;
  for (const SizeBucket& b : size_buckets(rec, c, shape.spec)) {
    if (b.decision->winner.empty()) continue;
    const Setting* s = rec.find_setting(b.decision->winner);
    const auto algorithm = s ? token_for(*s, "NCCL_ALGO", NcclListKind::Algorithm, c) : std::nullopt;
    const auto protocol = s ? token_for(*s, "NCCL_PROTO", NcclListKind::Protocol, c) : std::nullopt;
    if (!algorithm || !protocol) {
      notes.push_back("tuner CSV: " + b.decision->winner + " at " + std::string(name_of(c)) + " " +
                      format_size(b.decision->bytes) +
                      " does not force one algorithm and one protocol; left to NCCL");
      continue;
    }
    append_merged(
        rows, {nccl_function_name(c), b.min_bytes, b.max_bytes, *algorithm, *protocol, -1, nnodes, nranks});
  }
}

}  // namespace

std::vector<GroupShape> shapes_of(const Recommendation& rec) {
  std::vector<GroupShape> out;
  for (const auto& d : rec.sizes)
    if (std::none_of(out.begin(), out.end(), [&](const GroupShape& g) { return g.spec == d.group.spec; }))
      out.push_back(d.group);
  std::stable_partition(out.begin(), out.end(), [](const GroupShape& g) { return g.is_world(); });
  return out;
}

std::vector<SizeBucket> size_buckets(const Recommendation& rec, Collective c, const std::string& group) {
  std::vector<const SizeDecision*> sizes;
  for (const auto& d : rec.sizes)
    if (d.collective == c && d.group.spec == group) sizes.push_back(&d);
  std::sort(sizes.begin(), sizes.end(), [](const auto* a, const auto* b) { return a->bytes < b->bytes; });
  std::vector<SizeBucket> out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::uint64_t low =
        i == 0 ? sizes[i]->bytes : bucket_edge(sizes[i - 1]->bytes, sizes[i]->bytes) + 1;
    const std::uint64_t high =
        i + 1 == sizes.size() ? sizes[i]->bytes : bucket_edge(sizes[i]->bytes, sizes[i + 1]->bytes);
    out.push_back({low, high, sizes[i]});
  }
  return out;
}

std::vector<TunerCsvRow> tuner_csv_rows(const Recommendation& rec, std::vector<std::string>& notes) {
  std::vector<TunerCsvRow> rows;
  for (const GroupShape& shape : shapes_of(rec))
    for (Collective c : collectives_of(rec)) append_shape_rows(rows, rec, shape, c, notes);
  return rows;
}

std::map<Collective, std::vector<OmpiRule>> ompi_size_rules(const Recommendation& rec) {
  std::map<Collective, std::vector<OmpiRule>> out;
  for (Collective c : collectives_of(rec)) {
    std::vector<OmpiRule> rules = ompi_rules_for(rec, c, "world");
    if (!rules.empty() && any_shape_forces(rec, c)) out[c] = rules;
  }
  return out;
}

std::vector<OmpiSection> ompi_group_sections(const Recommendation& rec, std::vector<std::string>& notes) {
  std::vector<OmpiSection> out;
  for (const GroupShape& shape : shapes_of(rec)) {
    if (shape.is_world()) continue;
    for (Collective c : collectives_of(rec)) {
      std::vector<OmpiRule> rules = ompi_rules_for(rec, c, shape.spec);
      if (rules.empty() || !any_shape_forces(rec, c)) continue;
      const auto same_size = std::find_if(out.begin(), out.end(), [&](const OmpiSection& s) {
        return s.collective == c && s.comm_size == shape.nranks;
      });
      if (shape.nranks == rec.nranks || same_size != out.end()) {
        notes.push_back(
            "Open MPI rules: " + std::string(name_of(c)) + " on '" + shape.spec + "' (" +
            std::to_string(shape.nranks) +
            " ranks) left out: Open MPI tells communicators apart by size only, and that size has "
            "its section already");
        continue;
      }
      out.push_back({c, shape.nranks, shape.spec, std::move(rules)});
    }
  }
  return out;
}

}  // namespace commtune
