// libFuzzer target: the results readers (commtune's results JSON, and nccl-tests' JSON where the
// document looks like it, as compare tells them apart), then what tune, export and compare do with
// a file they accepted (the tuner, the summary, every export format, a comparison with itself).
#include "fuzz_input.hpp"
#include "core/json_file.hpp"
#include "results/nccl_tests_json.hpp"
#include "results/results_document.hpp"
#include "tune/regression_compare.hpp"
#include "tune/tuner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    const nlohmann::json text = parse_json_text(fuzz::as_text(data, size), "fuzz.json");
    const bool nccl_tests = is_nccl_tests_json(text);
    const ResultsDocument doc =
        nccl_tests ? nccl_tests_from_json(text, "fuzz.json") : results_from_json(text, "fuzz.json");
    require_usable_results(doc, "fuzz.json", true);
    if (!nccl_tests) fuzz::render_everything(tune(doc, TuneOptions{}));
    compare_results(doc, doc, CompareOptions{0.05});
  });
  return 0;
}
