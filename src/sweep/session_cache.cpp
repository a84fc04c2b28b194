#include "sweep/session_cache.hpp"

#include <algorithm>

namespace commtune {
namespace {

auto of_setting(std::size_t index) {
  return [index](const auto& entry) { return entry.first == index; };
}

}  // namespace

std::unique_ptr<SettingSession> SessionCache::take(std::size_t index) {
  const auto it = std::find_if(kept_.begin(), kept_.end(), of_setting(index));
  if (it == kept_.end()) return nullptr;
  std::unique_ptr<SettingSession> session = std::move(it->second);
  kept_.erase(it);
  return session;
}

void SessionCache::give_back(std::size_t index, std::unique_ptr<SettingSession> session) {
  take(index);  // a stale one of the same setting is closed
  if (!session || capacity_ == 0) return;
  kept_.emplace_front(index, std::move(session));
  while (kept_.size() > capacity_) kept_.pop_back();
}

bool SessionCache::holds(std::size_t index) const { return std::any_of(kept_.begin(), kept_.end(), of_setting(index)); }

}  // namespace commtune
