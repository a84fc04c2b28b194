// libFuzzer target: the replay results reader (replay/replay_record.hpp), then what a reader of an
// accepted file does with it: its figures (verdicts, intervals, money) and its table; its JSON must
// read back to the same steps.
#include <cstdlib>

#include "core/json_file.hpp"
#include "fuzz_input.hpp"
#include "replay/replay_record.hpp"
#include "replay/replay_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    const ReplayRecord r =
        replay_from_json(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json");
    replay_table(r);
    const ReplayRecord again = replay_from_json(to_json(r), "again.json");
    if (again.settings.size() != r.settings.size()) std::abort();
    for (std::size_t i = 0; i < r.settings.size(); ++i)
      if (again.settings[i].step_seconds != r.settings[i].step_seconds) std::abort();
  });
  return 0;
}
