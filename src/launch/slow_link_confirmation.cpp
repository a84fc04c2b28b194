// confirmed_slow_links and confirmed_slow_nodes (launch/doctor_parts.hpp): a slow node by a second
// whole map, a slow pair by measuring it alone (doctor/alone_rounds.hpp), each group of maps measured
// at once.
#include <algorithm>

#include "control/typed_messages.hpp"
#include "core/text_format.hpp"
#include "doctor/alone_rounds.hpp"
#include "doctor/measured_findings.hpp"
#include "launch/doctor_parts.hpp"

namespace commtune {
namespace {

Finding transient(const Finding& f, const std::string& why, const std::string& action) {
  return Finding{f.id + "-transient", Severity::Info, f.subject, f.evidence + "; " + why, action};
}

// Each slow node of the first map, named when the second whole map finds it again.
std::vector<Finding> confirm_nodes(const std::vector<Finding>& first,
                                   const std::optional<PairMatrix>& again) {
  const std::vector<Finding> second = again ? find_slow_nodes(*again) : std::vector<Finding>{};
  std::vector<Finding> out;
  for (Finding f : first) {
    const bool seen =
        std::any_of(second.begin(), second.end(), [&](const Finding& g) { return g.subject == f.subject; });
    if (seen)
      f.evidence += "; confirmed by a second map after the sweep";
    else
      f = transient(f, "not seen again in a second map after the sweep",
                    "a burst of load or traffic during the first map: run the doctor again if it recurs");
    out.push_back(std::move(f));
  }
  return out;
}

// Each slow pair of the first map, named when it is slow again measured alone (the same rule on the
// pairs measured alone: the pair against its ends' links to a third member).
std::vector<Finding> confirm_pairs(const PairMatrix& map, const std::optional<PairMatrix>& alone) {
  const std::vector<BadPair> again = alone ? bad_pairs(*alone) : std::vector<BadPair>{};
  std::vector<Finding> out;
  for (const BadPair& p : bad_pairs(map)) {
    Finding f = bad_pair_finding(map, p);
    const auto seen =
        std::find_if(again.begin(), again.end(), [&](const BadPair& q) { return q.i == p.i && q.j == p.j; });
    if (seen != again.end()) {
      f.evidence += "; confirmed measured alone after the sweep (one pair at a time): " +
                    bad_pair_finding(*alone, *seen).evidence;
    } else if (!alone) {
      f = transient(f, "not measured again: the re-measure alone did not complete",
                    "run the doctor again; if it recurs, test the pair alone (ib_write_bw)");
    } else {
      const auto both = link_medians(*alone, p.i, p.j);
      f = transient(
          f,
          printf_string("measured alone after the sweep (one pair at a time) it ran at %.3f GB/s, within "
                        "the margin of its ends' other links",
                        both ? std::max(both->first, both->second) : 0.0),
          "slow only while other pairs ran beside it: a route or switch uplink it shares with them, or "
          "CPUs shared with other work; run the doctor again if it recurs");
    }
    out.push_back(std::move(f));
  }
  return out;
}

// Rank 0's plan of each phase, agreed by every rank: which groups map again whole, and each
// group's pairs to measure alone (none: the group sits that phase out).
struct ConfirmationPlan {
  std::vector<bool> whole;
  std::vector<std::vector<Round>> alone;
};

ConfirmationPlan agreed_plan(ControlPlane& control, const std::vector<PairMatrix>& maps) {
  ConfirmationPlan plan;
  if (control.rank() == 0)
    for (const PairMatrix& m : maps) {
      plan.whole.push_back(!find_slow_nodes(m).empty());
      plan.alone.push_back(alone_rounds(m, bad_pair_members(m)));
    }
  return {broadcast_value(control, plan.whole), broadcast_value(control, plan.alone)};
}

// The phase's maps, each group's where it measured, when any group has something to measure.
std::vector<std::optional<PairMatrix>> measured_phase(const GroupRounds& rounds,
                                                      const MeasureMapsAgain& measure) {
  const bool any =
      std::any_of(rounds.begin(), rounds.end(), [](const auto& r) { return !r.has_value() || !r->empty(); });
  std::vector<std::optional<PairMatrix>> out =
      any ? measure(rounds) : std::vector<std::optional<PairMatrix>>{};
  out.resize(rounds.size());
  return out;
}

}  // namespace

std::vector<std::vector<Finding>> confirmed_slow_links(ControlPlane& control,
                                                       const std::vector<PairMatrix>& maps,
                                                       const MeasureMapsAgain& measure_again) {
  const ConfirmationPlan plan = agreed_plan(control, maps);
  GroupRounds whole, alone;
  for (std::size_t g = 0; g < plan.whole.size(); ++g) {
    whole.push_back(plan.whole[g] ? std::nullopt : std::optional(std::vector<Round>{}));
    alone.push_back(plan.alone[g]);
  }
  const auto again = measured_phase(whole, measure_again);
  const auto alone_maps = measured_phase(alone, measure_again);
  if (control.rank() != 0) return {};
  std::vector<std::vector<Finding>> out;
  for (std::size_t g = 0; g < maps.size(); ++g) {
    std::vector<Finding> group = confirm_nodes(find_slow_nodes(maps[g]), again[g]);
    for (Finding& f : confirm_pairs(maps[g], alone_maps[g])) group.push_back(std::move(f));
    out.push_back(std::move(group));
  }
  return out;
}

std::vector<Finding> confirmed_slow_nodes(ControlPlane& control, const std::optional<PairMatrix>& map,
                                          const MeasureMapAgain& measure_again) {
  std::vector<PairMatrix> maps;
  if (map && control.rank() == 0) maps.push_back(*map);
  const auto groups = confirmed_slow_links(control, maps, [&](const GroupRounds& rounds) {
    return std::vector<std::optional<PairMatrix>>{measure_again(rounds.at(0))};
  });
  return groups.empty() ? std::vector<Finding>{} : groups.front();
}

}  // namespace commtune
