#include "sweep/interrupt.hpp"

#include <csignal>

namespace commtune {
namespace {

// A signal handler can only reach process-wide state: this flag is the one such state we keep.
volatile std::sig_atomic_t g_stop_requested = 0;
struct sigaction g_previous_int, g_previous_term;

void on_signal(int signal) {
  if (g_stop_requested) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_stop_requested = 1;
}

}  // namespace

InterruptWatch::InterruptWatch() {
  g_stop_requested = 0;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptWatch::~InterruptWatch() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

bool InterruptWatch::requested() const { return g_stop_requested != 0; }

}  // namespace commtune
