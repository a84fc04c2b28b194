#pragma once
// The settings a racing sweep keeps open between its rounds (docs/racing.md): on NCCL, opening a
// setting starts workers and initialises a communicator, seconds each time. The runner takes a
// setting's session from here when it has one and gives it back after the setting's cases; the
// cache holds at most `capacity` and closes the one used longest ago beyond that. A session whose
// cases did not all measure ok is not given back: the next round opens that setting afresh.
#include <cstddef>
#include <list>
#include <memory>
#include <utility>

#include "backend/backend.hpp"

namespace commtune {

class SessionCache {
 public:
  explicit SessionCache(std::size_t capacity) : capacity_(capacity) {}

  // The open session of setting `index`, now owned by the caller; null when none is kept.
  std::unique_ptr<SettingSession> take(std::size_t index);
  // Keeps `session` as setting `index`'s, the most recently used; beyond the capacity the least
  // recently used one is closed (destroyed) here.
  void give_back(std::size_t index, std::unique_ptr<SettingSession> session);

  std::size_t size() const { return kept_.size(); }
  bool holds(std::size_t index) const;

 private:
  std::size_t capacity_;
  std::list<std::pair<std::size_t, std::unique_ptr<SettingSession>>> kept_;  // most recent first
};

}  // namespace commtune
