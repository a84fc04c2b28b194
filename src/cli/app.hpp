#pragma once
// The commtune command line: every subcommand, and the mapping of errors to exit codes (2 for
// bad input). `wiring` says which parts run (the product's, or the test build's simulated ones).
#include "launch/wiring.hpp"

namespace commtune {

int run_commtune(int argc, char** argv, const Wiring& wiring);

}  // namespace commtune
