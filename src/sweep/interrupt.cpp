#include "sweep/interrupt.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>

namespace commtune {
namespace {

// A signal handler can only reach process-wide state: this flag is the one such state we keep.
// The grace period is set once per watch, before the handlers are installed.
volatile std::sig_atomic_t g_stop_requested = 0;
volatile std::sig_atomic_t g_grace_seconds = 300;
struct sigaction g_previous_int, g_previous_term, g_previous_alarm;

void on_signal(int signal) {
  if (g_stop_requested) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_stop_requested = 1;
  alarm(static_cast<unsigned>(g_grace_seconds));
}

// The run did not stop within the grace period: every finished case is already in the file.
void on_grace_over(int) { _exit(130); }

}  // namespace

InterruptWatch::InterruptWatch(std::chrono::seconds grace) {
  g_stop_requested = 0;
  g_grace_seconds = static_cast<std::sig_atomic_t>(std::max<long long>(1, grace.count()));
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
  struct sigaction alarm_action {};
  alarm_action.sa_handler = on_grace_over;
  sigemptyset(&alarm_action.sa_mask);
  sigaction(SIGALRM, &alarm_action, &g_previous_alarm);
}

InterruptWatch::~InterruptWatch() {
  alarm(0);
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGALRM, &g_previous_alarm, nullptr);
}

bool InterruptWatch::requested() const { return g_stop_requested != 0; }

}  // namespace commtune
