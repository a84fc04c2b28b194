#pragma once
// Ctrl-C / SIGTERM handling: the first signal asks the sweep to stop after the current case (the
// results file stays valid either way); a second one terminates at once, and so does the end of
// the grace period after the first, so that a stuck step can never make a signal be ignored.
#include <chrono>

namespace commtune {

class InterruptWatch {
 public:
  // `grace`: how long after the first signal the run may take to stop by itself (longer than
  // its longest step); then the process exits with 130.
  explicit InterruptWatch(std::chrono::seconds grace = std::chrono::seconds(300));
  ~InterruptWatch();  // restores the previous handlers
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  bool requested() const;
};

}  // namespace commtune
