#pragma once
// Open MPI control variables through the MPI tool interface (MPI_T): look one up by name, read
// it, and write it (integers, or an enumerator's name such as "ring").
#include <optional>
#include <string>
#include <vector>

namespace commtune {

struct ControlVariable {
  int index = -1;
  std::string name;
  bool writable = false;
  std::vector<std::pair<int, std::string>> enumerators;  // empty when not an enum
};

// nullopt when no such variable exists (e.g. the component is not loaded).
std::optional<ControlVariable> find_control_variable(const std::string& name);

// Converts "4" or "ring" into the integer value; throws InputError when it is neither.
int control_value(const ControlVariable& variable, const std::string& text);

int read_control_variable(const ControlVariable& variable);
// Throws SettingError with MPI's reason when the write is refused.
void write_control_variable(const ControlVariable& variable, int value);

}  // namespace commtune
