#pragma once
// The section of a replay's results (`commtune replay`, docs/replay.md) in `commtune report`: the
// step's communication time per setting, each bar split by call (its share of the step) with the
// median's interval on the total; then per setting the change against the default with its
// interval and verdict, and the money with a price.
#include <string>

#include "html/document.hpp"
#include "replay/replay_record.hpp"

namespace commtune {

html::Section replay_section(const ReplayRecord& record, const std::string& path);

}  // namespace commtune
