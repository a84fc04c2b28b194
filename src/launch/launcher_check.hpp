#pragma once
// A launcher commtune cannot run its ranks under. torchrun starts PyTorch's workers and joins them
// through its own rendezvous (MASTER_ADDR, a TCP store), which commtune's ranks do not speak: each
// process it starts would run a whole sweep of its own, every one of a node's on all of its GPUs
// at once. So a sweep, replay or doctor started by torchrun with more than one process stops before
// anything starts, with what to type instead; one process alone (--nproc_per_node 1 on one node)
// is a launcher-free run and goes on.
#include "host/launcher.hpp"

namespace commtune {

// Throws InputError where `launcher` is torchrun with more than one process (or an unknown count).
void refuse_unsupported_launcher(const Launcher& launcher);

}  // namespace commtune
