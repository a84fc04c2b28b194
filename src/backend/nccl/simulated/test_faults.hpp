#pragma once
// Fault injection for tests of the watchdog: a setting carries the knob COMMTUNE_TEST_FAULT
// (e.g. "hang-init", "crash-case:1") and the worker (or supervisor) of the named rank misbehaves
// on purpose. Lets CI prove that hangs, crashes and garbage are recorded and the sweep goes on.
#include <optional>
#include <string>
#include <string_view>

namespace commtune {

inline constexpr const char* kTestFaultKnob = "COMMTUNE_TEST_FAULT";

enum class FaultMode {
  HangInit,   // worker never answers init
  CrashInit,  // worker dies (SIGSEGV) during init
  // The case faults fire in a round of the pairwise map too (it has no case).
  HangCase,        // worker never answers its first timing request
  CrashCase,       // worker dies (SIGSEGV) while preparing a case
  ErrorCase,       // worker reports an error (as NCCL would) for its first case, and stays usable
  Garbage,         // worker writes a line that is not the protocol
  ExitEarly,       // worker exits with status 0 without answering
  SupervisorExit,  // the supervisor itself exits when it opens the setting (peer-death test)
  SupervisorHang,  // the supervisor itself stops answering when it opens the setting
};

struct TestFault {
  FaultMode mode = FaultMode::HangInit;
  std::optional<int> rank;  // empty: every rank (worker faults) / every supervisor
  bool applies_to(int r) const { return !rank || *rank == r; }
};

// "MODE" or "MODE:RANK"; throws InputError on anything else.
TestFault parse_test_fault(std::string_view text);
bool is_supervisor_fault(FaultMode mode);

// The fault named by COMMTUNE_TEST_FAULT in this process's environment, if any (worker side).
std::optional<TestFault> fault_from_environment();

}  // namespace commtune
