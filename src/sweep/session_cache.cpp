#include "sweep/session_cache.hpp"

#include <algorithm>

namespace commtune {
namespace {

auto of_setting(std::size_t index) {
  return [index](const auto& entry) { return entry.index == index; };
}

}  // namespace

std::unique_ptr<SettingSession> SessionCache::take(std::size_t index) {
  const auto it = std::find_if(kept_.begin(), kept_.end(), of_setting(index));
  if (it == kept_.end()) return nullptr;
  std::unique_ptr<SettingSession> session = std::move(it->session);
  kept_.erase(it);
  return session;
}

void SessionCache::give_back(std::size_t index, std::unique_ptr<SettingSession> session, bool measured_ok) {
  take(index);  // a stale one of the same setting is closed
  if (!measured_ok) failed_.insert(index);
  if (!session || capacity_ == 0) return;
  kept_.push_front(Kept{index, std::move(session)});
  while (kept_.size() > capacity_) kept_.pop_back();
}

void SessionCache::close_failed() {
  kept_.remove_if([this](const Kept& k) { return failed_.count(k.index) > 0; });
  failed_.clear();
}

bool SessionCache::holds(std::size_t index) const {
  return std::any_of(kept_.begin(), kept_.end(), of_setting(index));
}

}  // namespace commtune
