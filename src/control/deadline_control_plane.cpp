#include "control/deadline_control_plane.hpp"

namespace commtune {
namespace {

class SteadyClock final : public DeadlineClock {
 public:
  time_point now() override { return std::chrono::steady_clock::now(); }
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                  time_point until) override {
    changed.wait_until(lock, until);
  }
};

}  // namespace

DeadlineClock& DeadlineClock::steady() {
  static SteadyClock clock;
  return clock;
}

DeadlineControlPlane::DeadlineControlPlane(ControlPlane& inner, std::chrono::milliseconds deadline,
                                           std::function<void(const std::string&)> on_expiry,
                                           DeadlineClock& clock)
    : inner_(inner), deadline_(deadline), on_expiry_(std::move(on_expiry)), clock_(clock), watcher_([this] {
        watch();
      }) {}

DeadlineControlPlane::~DeadlineControlPlane() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  watcher_.join();
}

template <typename Call>
auto DeadlineControlPlane::guarded(const char* what, Call&& call) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_in_ = what;
    waiting_since_ = clock_.now();
  }
  changed_.notify_all();
  auto result = call();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_in_ = nullptr;
  }
  changed_.notify_all();
  return result;
}

void DeadlineControlPlane::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (waiting_in_ == nullptr) {
      changed_.wait(lock);
      continue;
    }
    // Woken by the call's end, a new call or the deadline (or spuriously): the loop looks again.
    const auto expiry = waiting_since_ + deadline_;
    if (clock_.now() < expiry) {
      clock_.wait_until(lock, changed_, expiry);
    } else {
      const std::string message = "rank " + std::to_string(inner_.rank()) +
                                  ": no word from the other supervisors for " +
                                  std::to_string(deadline_.count() / 1000) + " s while waiting in " +
                                  waiting_in_ + ": a peer supervisor died or hangs; ending the job";
      lock.unlock();
      on_expiry_(message);
      return;
    }
  }
}

std::optional<std::string> DeadlineControlPlane::agree_on_failure(const std::optional<std::string>& local) {
  return guarded("agree_on_failure", [&] { return inner_.agree_on_failure(local); });
}

bool DeadlineControlPlane::any(bool local) {
  return guarded("any", [&] { return inner_.any(local); });
}

std::vector<std::string> DeadlineControlPlane::gather_to_root(const std::string& local) {
  return guarded("gather_to_root", [&] { return inner_.gather_to_root(local); });
}

std::string DeadlineControlPlane::broadcast_from_root(const std::string& text) {
  return guarded("broadcast_from_root", [&] { return inner_.broadcast_from_root(text); });
}

}  // namespace commtune
