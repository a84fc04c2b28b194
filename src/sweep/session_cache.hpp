#pragma once
// The settings a racing sweep keeps open between its rounds (docs/racing.md): on NCCL, opening a
// setting starts workers and initialises a communicator, seconds each time. The runner takes a
// setting's session from here when it has one and gives it back after the setting's cases; the
// cache holds at most `capacity` and closes the one used longest ago beyond that. A session is
// given back whatever its cases measured, so that a round run side by side (plan/race_order)
// goes on with it at the next size: one whose workers were stopped answers with that as a
// setting's segment would. Between rounds, close_failed() closes the sessions given back after a
// case that did not measure ok: the next round opens those settings afresh.
#include <cstddef>
#include <list>
#include <memory>
#include <set>
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
  // `measured_ok`: whether every case it ran since it was taken measured ok (on every rank).
  void give_back(std::size_t index, std::unique_ptr<SettingSession> session, bool measured_ok);
  // Closes the sessions of the settings given back with measured_ok false since the last call.
  void close_failed();

  std::size_t size() const { return kept_.size(); }
  std::size_t capacity() const { return capacity_; }
  bool holds(std::size_t index) const;

 private:
  std::size_t capacity_;
  struct Kept {
    std::size_t index;
    std::unique_ptr<SettingSession> session;
  };
  std::list<Kept> kept_;          // most recent first
  std::set<std::size_t> failed_;  // settings given back after a case that did not measure ok
};

}  // namespace commtune
