#pragma once
// The control plane carries decisions between supervisors (plans, verdicts, stop requests),
// never measured traffic. Every rank calls each method in the same order.
#include <optional>
#include <string>
#include <vector>

namespace commtune {

// Where this rank sits: its node (0.. in the order of each node's lowest rank), how many nodes
// the job has, and its rank among the ranks of its node. Nodes are what MPI's locality says
// (MPI_COMM_TYPE_SHARED: the ranks that can share memory), not host names, which several
// nodes may share (several slurmd on one host).
struct NodeLocality {
  int node = 0;
  int nnodes = 1;
  int local_rank = 0;
  int local_size = 1;
};

class ControlPlane {
 public:
  virtual ~ControlPlane() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual NodeLocality locality() const = 0;
  // Every rank offers its own failure (or none); all ranks get the same verdict: the failure of
  // the lowest failing rank, prefixed with that rank, or none when every rank succeeded.
  virtual std::optional<std::string> agree_on_failure(const std::optional<std::string>& local) = 0;
  // True on every rank when any rank asks for it.
  virtual bool any(bool local) = 0;
  virtual std::vector<std::string> gather_to_root(const std::string& local) = 0;
  virtual std::string broadcast_from_root(const std::string& text) = 0;
};

}  // namespace commtune
