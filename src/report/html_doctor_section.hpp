#pragma once
// A doctor report drawn: healthy or not, the pairwise bandwidth matrix as a heatmap (latency in
// its numbers), the path's ceiling, and the findings, most severe first, with their evidence and
// what to do.
#include <string>

#include "html/document.hpp"
#include "doctor/doctor_report.hpp"

namespace commtune {

html::Section doctor_section(const DoctorReport& doc, const std::string& path);

}  // namespace commtune
