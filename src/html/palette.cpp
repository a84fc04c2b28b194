#include "html/palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace commtune::html {
namespace {

// Okabe & Ito (2008), "Color Universal Design": blue, vermillion, bluish green, orange, reddish
// purple, sky blue, yellow (dark enough on white), black.
constexpr std::array<const char*, 8> kOkabeIto = {"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                                  "#CC79A7", "#56B4E9", "#B8A000", "#000000"};
constexpr std::array<const char*, 4> kDashes = {"", "6 3", "2 2", "8 3 2 3"};

struct Rgb {
  double r, g, b;
};
// Stops of a blue-to-yellow ramp close to cividis (perceptually even, readable with any
// colour-vision deficiency).
constexpr std::array<Rgb, 5> kRamp = {Rgb{0, 32, 77}, Rgb{65, 77, 107}, Rgb{124, 123, 120},
                                      Rgb{188, 175, 111}, Rgb{253, 231, 55}};

}  // namespace

std::string series_colour(std::size_t i) { return kOkabeIto[i % kOkabeIto.size()]; }

std::string series_dash(std::size_t i) { return kDashes[i % kDashes.size()]; }

std::string verdict_colour(std::string_view verdict) {
  if (verdict == "FASTER") return "#0072B2";
  if (verdict == "SLOWER") return "#D55E00";
  if (verdict == "SAME") return "#999999";
  if (verdict == "AMBIGUOUS") return "#F0E442";  // light yellow: apart from vermillion by lightness too
  return "#666666";
}

std::string ramp_colour(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * static_cast<double>(kRamp.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(t), kRamp.size() - 2);
  const double f = t - static_cast<double>(i);
  const Rgb& a = kRamp[i];
  const Rgb& b = kRamp[i + 1];
  char text[8];
  std::snprintf(text, sizeof text, "#%02X%02X%02X", static_cast<int>(std::lround(a.r + (b.r - a.r) * f)),
                static_cast<int>(std::lround(a.g + (b.g - a.g) * f)),
                static_cast<int>(std::lround(a.b + (b.b - a.b) * f)));
  return text;
}

}  // namespace commtune::html
