#pragma once
// Communicator groups on the host backend (`sweep --groups`, plan/groups.hpp): one communicator
// per group spec, split from the world by the spec's colors (MPI_Comm_split, as nccl-tests does),
// and the tally of every group's per-iteration times while all groups run a case at once.
#include <mpi.h>

#include <vector>

#include "plan/groups.hpp"
#include "plan/sweep_options.hpp"

namespace commtune {

// The per-iteration times of every group of a case run on several communicators at once: after
// each batch, rank 0 gathers every rank's times and keeps, per group, the max over its ranks.
class GroupTally {
 public:
  explicit GroupTally(const GroupLayout& layout) : layout_(layout), seconds_(layout.groups.size()) {}
  // Every rank calls it with its own times of one batch; `control` is the whole job's.
  void add(const std::vector<double>& durations, MPI_Comm control);
  // Rank 0: each group's times, in the layout's order; empty elsewhere.
  const std::vector<std::vector<double>>& seconds() const { return seconds_; }

 private:
  const GroupLayout& layout_;
  std::vector<std::vector<double>> seconds_;
};

// This rank's communicator of one group spec other than world, and the spec's layout.
struct GroupComm {
  GroupLayout layout;
  MPI_Comm comm = MPI_COMM_NULL;
};

// One communicator per group spec of `options` other than world, split from the world by the
// spec's colors; call it while the setting's variables are in force, so that each carries them.
// Throws SettingError (having freed what it made) when a split fails.
std::vector<GroupComm> split_groups(const SweepOptions& options, const std::vector<int>& nodes);

}  // namespace commtune
