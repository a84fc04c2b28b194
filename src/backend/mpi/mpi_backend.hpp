#pragma once
// Collectives on host memory through Open MPI, in-process. A setting is a set of Open MPI control
// variables (e.g. coll_tuned_allreduce_algorithm=ring) written through MPI_T just before
// MPI_Comm_dup, so the duplicate communicator carries them; they are restored right after.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/mpi/host_buffers.hpp"
#include "backend/mpi/mpi_environment.hpp"

namespace commtune {

class MpiBackend : public Backend {
 public:
  // `control` carries the per-iteration time reduction and must not be a measured communicator.
  MpiBackend(const MpiEnvironment& environment, MPI_Comm control);
  BackendKind kind() const override { return BackendKind::Mpi; }
  PlanLimits limits() const override;
  CostModel cost_model() const override;
  nlohmann::json provenance() const override;
  void validate(const Setting& setting, const SweepOptions& options) const override;
  std::unique_ptr<SettingSession> open(const Setting& setting, const SweepOptions& options) override;

 private:
  const MpiEnvironment& environment_;
  MPI_Comm control_;
  std::vector<int> nodes_;  // the node of every rank (control/mpi_control_plane), found once
  std::string heap_;        // what backend/mpi/heap_thresholds did to malloc, for the provenance
  // Every session's cases run in these, one case at a time (sessions stay open across racing
  // rounds, but only one runs a case at once): allocated at the largest case, kept.
  std::shared_ptr<HostBuffers> buffers_ = std::make_shared<HostBuffers>();
};

}  // namespace commtune
