// libFuzzer target: the recommendation reader (tune/recommendation_json), then the summary and
// every export format of a recommendation it accepted.
#include "fuzz_input.hpp"
#include "core/json_file.hpp"
#include "tune/recommendation_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    const Recommendation rec =
        recommendation_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json");
    fuzz::render_everything(rec);
  });
  return 0;
}
