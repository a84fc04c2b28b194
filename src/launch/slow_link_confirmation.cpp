// confirmed_slow_nodes (launch/doctor_parts.hpp): a slow node by a second whole map, a slow pair
// by measuring it alone (doctor/alone_rounds.hpp).
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

}  // namespace

std::vector<Finding> confirmed_slow_nodes(ControlPlane& control, const std::optional<PairMatrix>& map,
                                          const MeasureMapAgain& measure_again) {
  const bool here = map && control.rank() == 0;
  const std::vector<Finding> nodes = here ? find_slow_nodes(*map) : std::vector<Finding>{};
  const std::vector<Round> alone_plan =
      broadcast_value(control, here ? alone_rounds(*map, bad_pair_members(*map)) : std::vector<Round>{});
  std::optional<PairMatrix> again, alone;
  if (broadcast_value(control, !nodes.empty())) again = measure_again(std::nullopt);
  if (!alone_plan.empty()) alone = measure_again(alone_plan);
  if (!here) return {};
  std::vector<Finding> out = confirm_nodes(nodes, again);
  for (Finding& f : confirm_pairs(*map, alone)) out.push_back(std::move(f));
  return out;
}

}  // namespace commtune
