#include "backend/nccl/simulated/test_faults.hpp"

#include <charconv>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/name_table.hpp"

namespace commtune {
namespace {

constexpr NameTable<FaultMode, 9> kModeNames{{
    {FaultMode::HangInit, "hang-init"},
    {FaultMode::CrashInit, "crash-init"},
    {FaultMode::HangCase, "hang-case"},
    {FaultMode::CrashCase, "crash-case"},
    {FaultMode::ErrorCase, "error-case"},
    {FaultMode::Garbage, "garbage"},
    {FaultMode::ExitEarly, "exit-early"},
    {FaultMode::SupervisorExit, "supervisor-exit"},
    {FaultMode::SupervisorHang, "supervisor-hang"},
}};

int parse_rank(std::string_view text, std::string_view whole) {
  int rank = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rank);
  if (error != std::errc() || end != text.data() + text.size() || rank < 0)
    throw InputError(std::string(kTestFaultKnob) + ": '" + std::string(whole) +
                     "' has no valid rank after ':'");
  return rank;
}

}  // namespace

TestFault parse_test_fault(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view mode_text = text.substr(0, colon);
  if (const std::optional<FaultMode> mode = value_in(kModeNames, mode_text)) {
    TestFault fault{*mode, std::nullopt};
    if (colon != std::string_view::npos) fault.rank = parse_rank(text.substr(colon + 1), text);
    return fault;
  }
  throw InputError(std::string(kTestFaultKnob) + ": unknown fault '" + std::string(text) + "' (" +
                   names_in(kModeNames) + ", optionally :RANK)");
}

bool is_supervisor_fault(FaultMode mode) {
  return mode == FaultMode::SupervisorExit || mode == FaultMode::SupervisorHang;
}

std::optional<TestFault> fault_from_environment() {
  const char* value = std::getenv(kTestFaultKnob);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return parse_test_fault(value);
}

}  // namespace commtune
