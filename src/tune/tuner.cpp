#include "tune/tuner.hpp"

#include <algorithm>
#include <set>

#include "core/text_format.hpp"
#include "tune/case_verdict.hpp"

namespace commtune {
namespace {

struct Ranked {
  std::string setting;
  CaseVerdict verdict;
};

// Racing dropped `setting` at `key`: it lost there to another setting, so it never wins there.
bool raced_out_at(const CaseIndex& index, const std::string& setting, const SizeKey& key) {
  const auto& cases = index.cases(setting, key);
  return std::any_of(cases.begin(), cases.end(), [](const CaseResult* c) { return c->raced_out_here(); });
}

// Qualified candidates that pass the rule at `key`, largest gain first.
std::vector<Ranked> winners_at(const CaseIndex& index, const SizeKey& key, const DecisionRule& rule) {
  std::vector<Ranked> out;
  for (const auto& name : index.candidates(key)) {
    if (index.disqualified().count(name) || raced_out_at(index, name, key)) continue;
    const CaseVerdict v = verdict_against_default(index, name, key, rule);
    if (v.faster) out.push_back({name, v});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Ranked& a, const Ranked& b) { return a.verdict.gain > b.verdict.gain; });
  return out;
}

// What NCCL chose by itself at `key`, from the default's cases: the first placement that has it.
std::optional<NcclChoice> recorded_choice_at(const CaseIndex& index, const SizeKey& key) {
  for (const CaseResult* c : index.cases(kDefaultSettingName, key))
    if (c->nccl_choice && c->nccl_choice->recorded) return c->nccl_choice;
  return std::nullopt;
}

// The communicators the default's cases at `key` ran on: the world, or its slowest group's shape.
GroupShape shape_at(const CaseIndex& index, const SizeKey& key) {
  GroupShape shape{.spec = key.group};
  for (const CaseResult* c : index.cases(kDefaultSettingName, key))
    if (c->groups) {
      const GroupFigure& slowest = c->groups->groups.at(c->groups->slowest);
      shape.nranks = static_cast<int>(slowest.ranks.size());
      shape.nnodes = static_cast<int>(slowest.nodes.size());
      return shape;
    }
  return shape;
}

// Why NCCL's own choice is missing, once per distinct reason, as notes of the recommendation.
void note_unrecorded_choices(const ResultsDocument& sweep, Recommendation& rec) {
  std::set<std::string> said;
  for (const CaseResult& c : sweep.cases)
    if (c.setting == kDefaultSettingName && c.nccl_choice && !c.nccl_choice->recorded &&
        said.insert(c.nccl_choice->reason).second)
      rec.notes.push_back("NCCL's own choice " + describe(*c.nccl_choice));
}

std::string no_winner_reason(const CaseIndex& index, const SizeKey& key, const DecisionRule& rule) {
  const auto names = index.candidates(key);
  if (names.empty()) return "no other setting measured here";
  if (std::all_of(names.begin(), names.end(),
                  [&](const auto& n) { return index.disqualified().count(n) > 0; }))
    return "every other setting failed or produced wrong data somewhere";
  for (const auto& name : names)
    if (!index.disqualified().count(name) && verdict_against_default(index, name, key, rule).runs_overlap)
      return "no setting is clearly faster: " + name +
             " is faster on the pooled samples, but its runs do not all beat the default's";
  return "no setting is clearly faster (" + rule_text(rule) + ")";
}

SizeDecision decide_size(const CaseIndex& sweep, const CaseIndex* confirm, const SizeKey& key,
                         const DecisionRule& rule) {
  SizeDecision d{.collective = key.collective,
                 .bytes = key.bytes,
                 .nccl_chose = recorded_choice_at(sweep, key),
                 .group = shape_at(sweep, key)};
  const std::vector<Ranked> in_sweep = winners_at(sweep, key, rule);
  if (in_sweep.empty()) {
    d.reason = no_winner_reason(sweep, key, rule);
    return d;
  }
  const std::vector<Ranked> chosen = confirm ? winners_at(*confirm, key, rule) : in_sweep;
  for (const Ranked& r : chosen) {
    const bool also_in_sweep = std::any_of(in_sweep.begin(), in_sweep.end(),
                                           [&](const Ranked& s) { return s.setting == r.setting; });
    if (!also_in_sweep || sweep.disqualified().count(r.setting)) continue;
    d.winner = r.setting;
    d.gain = r.verdict.gain;
    d.default_us = r.verdict.default_us;
    d.winner_us = r.verdict.candidate_us;
    d.confirmed = confirm != nullptr;
    return d;
  }
  d.reason = "won in the sweep (" + in_sweep.front().setting + ") but not in the interleaved re-measure";
  return d;
}

std::vector<Setting> settings_of(const ResultsDocument& results) {
  std::vector<Setting> out = results.settings;
  if (std::none_of(out.begin(), out.end(), [](const Setting& s) { return s.name == kDefaultSettingName; }))
    out.insert(out.begin(), Setting{kDefaultSettingName, "nothing forced", {}, {}});
  return out;
}

// Racing stops sampling settings that are practically equal at its margin: tuned at a smaller one,
// a winner by less than the racing margin may have been left unresolved; the note says so.
void note_racing_margin(const ResultsDocument& sweep, const DecisionRule& rule, Recommendation& rec) {
  if (!sweep.sweep.contains("racing")) return;
  const DecisionRule raced = sweep.decision.value_or(DecisionRule{});
  if (rule.margin >= raced.margin) return;
  rec.notes.push_back("racing decided at a margin of " + format_percent(raced.margin) +
                      ": settings within it of the best were not sampled to tell them apart, so a winner by "
                      "less than that may be missed (sweep with --margin " +
                      printf_string("%g", rule.margin) + " to tune at " + format_percent(rule.margin) + ")");
}

int node_count(const ResultsDocument& results) {
  const auto layout = results.provenance.find("layout");
  if (layout == results.provenance.end() || !layout->is_object()) return 1;
  const auto nhosts = layout->find("nhosts");
  return nhosts != layout->end() && nhosts->is_number_integer() ? nhosts->get<int>() : 1;
}

}  // namespace

std::vector<Finalists> pick_finalists(const ResultsDocument& sweep, const TuneOptions& options) {
  const CaseIndex index(sweep);
  std::vector<Finalists> out;
  for (const SizeKey& key : index.default_sizes()) {
    const std::vector<Ranked> ranked = winners_at(index, key, options.decision);
    if (ranked.empty()) continue;
    Finalists f{key, {}};
    for (std::size_t i = 0; i < ranked.size() && i < options.max_finalists; ++i)
      f.settings.push_back(ranked[i].setting);
    out.push_back(f);
  }
  return out;
}

Recommendation tune(const ResultsDocument& sweep, const TuneOptions& options,
                    const ResultsDocument* confirmation) {
  const CaseIndex index(sweep);
  const std::optional<CaseIndex> confirm =
      confirmation ? std::optional<CaseIndex>(CaseIndex(*confirmation)) : std::nullopt;
  Recommendation rec;
  rec.backend = sweep.backend;
  rec.nranks = index.nranks();
  rec.nnodes = node_count(sweep);
  if (const auto labels = sweep.provenance.find("labels");
      labels != sweep.provenance.end() && labels->is_array())
    for (const auto& label : *labels)
      if (label.is_string()) rec.labels.push_back(label.get<std::string>());
  rec.min_margin = options.decision.margin;
  rec.objective = options.objective.describe();
  rec.confirmed = confirmation != nullptr;
  rec.confirm_rounds = confirmation ? options.confirm_rounds : 0;
  rec.settings = settings_of(sweep);
  rec.disqualified = index.disqualified();
  if (!sweep.complete) {  // only reached with --allow-incomplete: every output says so
    rec.incomplete = true;
    rec.notes.push_back("tuned " + incomplete_note(sweep));
  }
  note_unrecorded_choices(sweep, rec);
  note_racing_margin(sweep, options.decision, rec);
  for (const SizeKey& key : index.default_sizes())
    rec.sizes.push_back(decide_size(index, confirm ? &*confirm : nullptr, key, options.decision));
  choose_job_settings(index, options, rec);
  return rec;
}

void to_json(nlohmann::json& j, const Finalists& f) {
  j = {{"collective", name_of(f.key.collective)}, {"bytes", f.key.bytes}, {"settings", f.settings}};
  if (f.key.group != "world") j["group"] = f.key.group;
}

void from_json(const nlohmann::json& j, Finalists& f) {
  f.key = {parse_collective(j.at("collective").get<std::string>()), j.at("bytes").get<std::uint64_t>(),
           j.value("group", std::string("world"))};
  f.settings = j.at("settings").get<std::vector<std::string>>();
}

}  // namespace commtune
