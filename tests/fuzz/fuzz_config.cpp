// libFuzzer target: the config reader (json_file + config_loader) and the checks `sweep` runs on
// a config before anything starts, up to the size list the planner would expand.
#include "fuzz_input.hpp"
#include "core/json_file.hpp"
#include "plan/config_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    SweepConfig config = parse_config(parse_json_text(fuzz::as_text(data, size), "fuzz.json"), "fuzz.json");
    validate_sweep_options(config.options);
    config.settings = select_settings(config.settings, {});
    check_settings_apply(config);
    expand(config.options.sizes);
  });
  return 0;
}
