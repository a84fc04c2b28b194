#pragma once
// A compare report drawn: the provenance differences first, then per setting and collective the
// change of each case in percent (bars up: slower, down: faster; out-of-place and in-place side
// by side, with the change's interval), coloured by verdict, and the summary line.
#include <string>

#include "html/document.hpp"
#include "inputs/compare_report_json.hpp"

namespace commtune {

html::Section compare_section(const CompareDocument& doc, const std::string& path);

}  // namespace commtune
