// libFuzzer target: the PyTorch profiler trace reader, after json_file's checks.
#include "fuzz_input.hpp"
#include "core/json_file.hpp"
#include "workload/torch_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done(
      [&] { torch_trace_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json"); });
  return 0;
}
