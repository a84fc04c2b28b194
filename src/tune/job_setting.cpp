#include "tune/job_setting.hpp"

#include "tune/export_plan.hpp"

namespace commtune {
namespace {

void merge_knobs(const Recommendation& rec, Setting& out, std::vector<std::string>& notes) {
  for (const JobChoice& c : rec.choices) {
    const Setting* s = rec.find_setting(c.setting);
    if (!s || s->is_default()) continue;
    for (const auto& [knob, value] : s->knobs) {
      const auto [it, added] = out.knobs.emplace(knob, value);
      if (!added && it->second != value)
        notes.push_back(knob + ": two job-wide choices set different values; replayed with " + it->second);
    }
  }
}

}  // namespace

Setting job_wide_setting(const Recommendation& rec, std::vector<std::string>& notes) {
  Setting out{kRecommendationSettingName, "the recommendation's job-wide choices", {}, {}};
  // NCCL's env files are its knobs (NCCL reads them from the environment); Open MPI's name the
  // control variables OMPI_MCA_*, which the host backend writes through MPI_T by their own names.
  if (rec.backend == BackendKind::Nccl) {
    for (const EnvEntry& e : compose_environment(rec, true, notes)) out.knobs[e.name] = e.value;
  } else {
    merge_knobs(rec, out, notes);
  }
  bool per_size = false;
  for (const SizeDecision& d : rec.sizes) per_size = per_size || !d.winner.empty();
  if (per_size)
    notes.push_back(
        "the recommendation's per-size rules (tuner plugin, Open MPI rules file) are not replayed: the "
        "'recommendation' setting is its job-wide choices, what its env files set");
  return out;
}

}  // namespace commtune
