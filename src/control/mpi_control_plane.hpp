#pragma once
// The control plane over MPI: supervisors are MPI ranks; control messages travel on a private
// duplicate of MPI_COMM_WORLD so they never mix with measured traffic. Its node locality comes
// from MPI_COMM_TYPE_SHARED, once, at construction (every rank constructs it together).
#include <mpi.h>

#include <vector>

#include "control/control_plane.hpp"

namespace commtune {

// The node of every rank of `comm`, numbered in order of each node's lowest rank (MPI's locality:
// MPI_COMM_TYPE_SHARED, the ranks that can share memory). Every rank of `comm` calls it.
std::vector<int> node_of_each_rank(MPI_Comm comm);

class MpiControlPlane : public ControlPlane {
 public:
  MpiControlPlane();
  ~MpiControlPlane() override;
  MpiControlPlane(const MpiControlPlane&) = delete;
  MpiControlPlane& operator=(const MpiControlPlane&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  NodeLocality locality() const override { return locality_; }
  std::optional<std::string> agree_on_failure(const std::optional<std::string>& local) override;
  bool any(bool local) override;
  std::vector<std::string> gather_to_root(const std::string& local) override;
  std::string broadcast_from_root(const std::string& text) override;
  MPI_Comm comm() const { return comm_; }

 private:
  std::string broadcast_from(int root, const std::string& text);
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  NodeLocality locality_;
};

}  // namespace commtune
