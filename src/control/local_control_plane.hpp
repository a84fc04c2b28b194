#pragma once
// The control plane of a launcher-free run: one supervisor drives every local worker, so there
// is no peer to agree with and each decision is the local one. No MPI is initialised.
#include "control/control_plane.hpp"

namespace commtune {

class LocalControlPlane : public ControlPlane {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  NodeLocality locality() const override { return {}; }
  std::optional<std::string> agree_on_failure(const std::optional<std::string>& local) override {
    return local;
  }
  bool any(bool local) override { return local; }
  std::vector<std::string> gather_to_root(const std::string& local) override { return {local}; }
  std::string broadcast_from_root(const std::string& text) override { return text; }
};

}  // namespace commtune
