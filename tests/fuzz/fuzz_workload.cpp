// libFuzzer target: the workload reader (workload/workload.hpp), then what commands do with a
// workload it accepted: its totals per group, and its JSON, which must read back to the same workload.
#include <cstdlib>

#include "core/json_file.hpp"
#include "fuzz_input.hpp"
#include "workload/step_totals.hpp"
#include "workload/workload.hpp"
#include "workload/workload_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    const Workload w =
        workload_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json");
    totals_per_group(w);
    check_workload(w, "fuzz.json");  // what the reader accepted, the rules accept: never throws here
    if (!(workload_from_json(to_json(w), "again.json") == w)) std::abort();
  });
  return 0;
}
