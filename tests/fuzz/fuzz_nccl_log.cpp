// libFuzzer target: the NCCL debug log reader (line parser, streaming scan, shapes, step search).
#include <sstream>

#include "fuzz_input.hpp"
#include "workload/nccl_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace commtune;
  fuzz::refused_or_done([&] {
    std::istringstream in{std::string(fuzz::as_text(data, size))};
    read_nccl_log_streams({{"fuzz.log", &in}}, {});
  });
  return 0;
}
