#pragma once
// Ctrl-C / SIGTERM handling: the first signal asks the sweep to stop after the current case
// (the results file stays valid either way); a second one terminates at once.
namespace commtune {

class InterruptWatch {
 public:
  InterruptWatch();   // installs the handlers
  ~InterruptWatch();  // restores the previous ones
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  bool requested() const;
};

}  // namespace commtune
