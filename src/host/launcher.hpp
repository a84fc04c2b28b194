#pragma once
// Which launcher started this process, read from the variables launchers set: Open MPI's mpirun
// (OMPI_COMM_WORLD_*), PMIx (PMIX_RANK: mpirun, srun --mpi=pmix), PMI-1/2 (PMI_RANK, PMI_SIZE:
// MPICH's and srun's), and Slurm's own task numbering (SLURM_PROCID, SLURM_LOCALID).
#include <map>
#include <optional>
#include <string>

namespace commtune {

struct Launcher {
  bool mpi = false;              // an MPI launcher started it: MPI_Init joins the job
  std::optional<int> rank;       // this process's rank as the launcher numbered it
  std::optional<int> local_rank; // its rank on this node, where the launcher says
  bool first_rank() const { return !rank || *rank == 0; }
};

Launcher detect_launcher(const std::map<std::string, std::string>& environment);
Launcher detect_launcher();  // this process's environment

}  // namespace commtune
