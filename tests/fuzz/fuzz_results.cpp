// libFuzzer target: the results reader, then what tune, export and compare do with a file it
// accepted (the tuner, the summary, every export format, a comparison with itself).
#include "fuzz_input.hpp"
#include "core/json_file.hpp"
#include "results/results_document.hpp"
#include "tune/regression_compare.hpp"
#include "tune/tuner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    const ResultsDocument doc = results_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json");
    require_usable_results(doc, "fuzz.json", true);
    fuzz::render_everything(tune(doc, TuneOptions{}));
    compare_results(doc, doc, CompareOptions{0.05});
  });
  return 0;
}
