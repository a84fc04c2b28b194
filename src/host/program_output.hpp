#pragma once
// Runs a helper program (argv, searched in PATH, never a shell) and returns its standard output,
// or nothing when it is missing, fails or overruns `timeout`.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace commtune {

std::optional<std::string> program_output(const std::vector<std::string>& argv,
                                          std::chrono::milliseconds timeout);

}  // namespace commtune
