#pragma once
// Colours that stay apart for colour-blind readers: the Okabe-Ito palette for series (with a dash
// pattern each, so that lines differ in shape as well as colour), one colour per compare verdict,
// and a sequential ramp (dark blue to yellow, the cividis family) for heatmaps.
#include <cstddef>
#include <string>
#include <string_view>

namespace commtune::html {

// Series i's colour ("#0072B2"), cycling after 8.
std::string series_colour(std::size_t i);
// Series i's stroke-dasharray ("" for solid), cycling after 4.
std::string series_dash(std::size_t i);
// FASTER (blue), SLOWER (vermillion), SAME (grey), AMBIGUOUS (light yellow); anything else: grey.
std::string verdict_colour(std::string_view verdict);
// t in [0, 1] on the ramp; text on it should be dark above t = 0.6, light below.
std::string ramp_colour(double t);

}  // namespace commtune::html
