#pragma once
// The control plane carries decisions between supervisors (plans, verdicts, stop requests),
// never measured traffic. Every rank calls each method in the same order.
#include <optional>
#include <string>
#include <vector>

namespace commtune {

class ControlPlane {
 public:
  virtual ~ControlPlane() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank offers its own failure (or none); all ranks get the same verdict: the failure of
  // the lowest failing rank, prefixed with that rank, or none when every rank succeeded.
  virtual std::optional<std::string> agree_on_failure(const std::optional<std::string>& local) = 0;
  // True on every rank when any rank asks for it.
  virtual bool any(bool local) = 0;
  virtual std::vector<std::string> gather_to_root(const std::string& local) = 0;
  virtual std::string broadcast_from_root(const std::string& text) = 0;
};

}  // namespace commtune
