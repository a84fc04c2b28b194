#pragma once
// A control plane whose every wait has a deadline. Supervisors meet at each step; a live peer
// always arrives within the longest step deadline (its own watchdog bounds its workers), so a
// peer that misses the control deadline has died or hangs. Then this supervisor says so and
// ends the job (`on_expiry`, e.g. exit so that mpirun tears the job down) instead of waiting
// forever. Results written so far stay valid: the results file is complete after every case.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "control/control_plane.hpp"

namespace commtune {

// The clock the deadlines are kept by: the steady clock in every run; tests drive one of their own.
class DeadlineClock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~DeadlineClock() = default;
  virtual time_point now() = 0;
  // Waits on `changed` (its mutex held by `lock`) until notified or `until` by this clock; it may
  // return early, the caller looks again.
  virtual void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                          time_point until) = 0;
  static DeadlineClock& steady();
};

class DeadlineControlPlane : public ControlPlane {
 public:
  DeadlineControlPlane(ControlPlane& inner, std::chrono::milliseconds deadline,
                       std::function<void(const std::string&)> on_expiry,
                       DeadlineClock& clock = DeadlineClock::steady());
  ~DeadlineControlPlane() override;
  DeadlineControlPlane(const DeadlineControlPlane&) = delete;
  DeadlineControlPlane& operator=(const DeadlineControlPlane&) = delete;

  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  NodeLocality locality() const override { return inner_.locality(); }
  std::optional<std::string> agree_on_failure(const std::optional<std::string>& local) override;
  bool any(bool local) override;
  std::vector<std::string> gather_to_root(const std::string& local) override;
  std::string broadcast_from_root(const std::string& text) override;

 private:
  template <typename Call>
  auto guarded(const char* what, Call&& call);
  void watch();

  ControlPlane& inner_;
  std::chrono::milliseconds deadline_;
  std::function<void(const std::string&)> on_expiry_;
  DeadlineClock& clock_;
  std::mutex mutex_;
  std::condition_variable changed_;
  const char* waiting_in_ = nullptr;  // the call in progress, if any
  DeadlineClock::time_point waiting_since_;
  bool stopping_ = false;
  std::thread watcher_;
};

}  // namespace commtune
