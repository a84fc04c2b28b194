#pragma once
// Settings that cannot apply on this run's layout (its forced NCCL_ALGO leaves only algorithms
// NCCL switches off there): their cases are recorded as skipped with the reason, and a setting
// that applies to none of the sweep's collectives starts no worker at all.
#include <map>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "knobs/nccl_knobs.hpp"

namespace commtune {

using LayoutSkips = std::map<Collective, std::string>;  // collective -> why it is skipped

LayoutSkips layout_skips(const Setting& setting, const SweepOptions& options, const NcclLayout& layout);

// True when no collective of the sweep that the setting applies to is left to run.
bool skips_everything(const LayoutSkips& skips, const Setting& setting, const SweepOptions& options);

// `inner` (may be null when everything is skipped) with the skipped collectives answered here.
std::unique_ptr<SettingSession> skipping(std::unique_ptr<SettingSession> inner, LayoutSkips skips,
                                         int nranks);

}  // namespace commtune
