#pragma once
// Shared by the fuzz targets: the input as text, and the one outcome bad input may have besides
// success, an InputError. Anything else (another exception, a crash, a hang, a sanitizer report)
// escapes to libFuzzer and is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "core/errors.hpp"
#include "exports/export_writer.hpp"
#include "writers/tune_summary_writer.hpp"
#include "tune/export_plan.hpp"

namespace commtune::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

template <typename Body>
void refused_or_done(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
    // bad input, reported as such: the expected outcome
  }
}

// What commtune does with a recommendation it accepted: the summary and every export format.
inline void render_everything(const Recommendation& rec) {
  std::ostringstream out;
  write_tune_summary(rec, out);
  const ExportPlan plan = make_export_plan(rec);
  for (const auto& writer : make_export_writers())
    if (writer->applies_to(plan.backend)) writer->write(plan, out);
}

}  // namespace commtune::fuzz
