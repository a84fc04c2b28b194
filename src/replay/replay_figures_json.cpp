#include "replay/replay_figures_json.hpp"

namespace commtune {
namespace {

using nlohmann::json;

json money_json(const MoneyFigure& m) {
  json j{{"per_1000_steps", m.per_1000_steps},
         {"per_1000_steps_low", m.per_1000_low},
         {"per_1000_steps_high", m.per_1000_high}};
  if (m.per_run) {
    j["per_run"] = *m.per_run;
    j["per_run_low"] = *m.per_run_low;
    j["per_run_high"] = *m.per_run_high;
  }
  return j;
}

json change_json(const ChangeFigure& c) {
  json j{{"change", c.change},   {"change_low", c.low},          {"change_high", c.high},
         {"saved_s", c.saved_s}, {"saved_low_s", c.saved_low_s}, {"saved_high_s", c.saved_high_s}};
  if (c.money) j["money_saved"] = money_json(*c.money);
  return j;
}

}  // namespace

json to_json(const SettingFigures& f) {
  json j{{"verdict", name_of(f.verdict)}};
  if (!f.reason.empty()) j["reason"] = f.reason;
  if (f.step.count == 0) return j;
  j["step_median_s"] = f.step.median;
  j["step_ci_low_s"] = f.step.median_ci_low;
  j["step_ci_high_s"] = f.step.median_ci_high;
  j["steps"] = f.step.count;
  j["calls"] = json::array();
  for (const CallFigure& c : f.calls) j["calls"].push_back({{"median_s", c.median_s}, {"share", c.share}});
  if (f.change) j["vs_default"] = change_json(*f.change);
  return j;
}

}  // namespace commtune
