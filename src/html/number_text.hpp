#pragma once
// Numbers as the page prints them: fixed significant digits (locale-free), byte sizes in binary
// units ("8 B", "512 KiB", "16 GiB"), percentages with a sign.
#include <cstdint>
#include <string>

namespace commtune::html {

// `value` with `digits` significant digits, no exponent for ordinary magnitudes: 0.0012, 3.14, 2048.
std::string number(double value, int digits = 3);
// SVG coordinates: one decimal, so that the output is stable and compact.
std::string coordinate(double value);
// A power of two or any byte count in the largest binary unit that keeps it whole when it can:
// 8 B, 1 KiB, 1.5 MiB, 16 GiB.
std::string binary_size(double bytes);
// "+12.5%", "-3.0%", "0.0%".
std::string signed_percent(double fraction);

}  // namespace commtune::html
