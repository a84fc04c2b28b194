#include "control/deadline_control_plane.hpp"

namespace commtune {

DeadlineControlPlane::DeadlineControlPlane(ControlPlane& inner, std::chrono::milliseconds deadline,
                                           std::function<void(const std::string&)> on_expiry)
    : inner_(inner), deadline_(deadline), on_expiry_(std::move(on_expiry)), watcher_([this] { watch(); }) {}

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
    waiting_since_ = std::chrono::steady_clock::now();
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
    const auto since = waiting_since_;
    const auto expiry = since + deadline_;
    changed_.wait_until(lock, expiry, [&] { return stopping_ || waiting_in_ == nullptr || waiting_since_ != since; });
    if (!stopping_ && waiting_in_ != nullptr && waiting_since_ == since && std::chrono::steady_clock::now() >= expiry) {
      const std::string message = "rank " + std::to_string(inner_.rank()) + ": no word from the other supervisors for " +
                                  std::to_string(deadline_.count() / 1000) + " s while waiting in " + waiting_in_ +
                                  ": a peer supervisor died or hangs; ending the job";
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
