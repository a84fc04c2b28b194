#pragma once
// Which launcher started this process, read from the variables launchers set: Open MPI's mpirun
// (OMPI_COMM_WORLD_*), PMIx (PMIX_RANK: mpirun, srun --mpi=pmix), PMI-1/2 (PMI_RANK, PMI_SIZE:
// MPICH's and srun's), and Slurm's own task numbering (SLURM_PROCID, SLURM_LOCALID); and PyTorch's
// torchrun (TORCHELASTIC_RUN_ID, WORLD_SIZE, RANK), which commtune cannot run its ranks under
// (launch/launcher_check).
#include <map>
#include <optional>
#include <string>

namespace commtune {

// The Slurm job this process runs in (SLURM_JOB_*), and its step where srun started this
// process itself. Under `salloc ... mpirun` the step variables are those of mpirun's daemons
// (one task per node), so they are left out there.
struct SlurmJob {
  std::string job_id;
  std::string nodelist;        // SLURM_JOB_NODELIST, e.g. n[1-4]
  std::optional<int> nnodes;   // SLURM_JOB_NUM_NODES
  std::string step_id;         // srun only, like the three below
  std::string step_nodelist;   // SLURM_STEP_NODELIST
  std::optional<int> ntasks;   // SLURM_STEP_NUM_TASKS
  std::string tasks_per_node;  // SLURM_STEP_TASKS_PER_NODE, Slurm's notation: 2(x4) or 3,2,2
};

// torchrun's (torch.distributed.run's) variables, where it started this process.
struct TorchRun {
  std::string run_id;                   // TORCHELASTIC_RUN_ID
  std::optional<int> world_size;        // WORLD_SIZE: the processes torchrun started, all nodes
  std::optional<int> local_world_size;  // LOCAL_WORLD_SIZE: those of this node
};

struct Launcher {
  // "mpirun" (Open MPI's, also inside a Slurm allocation), "srun" (Slurm's, with PMIx or PMI),
  // "pmi" (another PMI launcher), or "none".
  std::string name = "none";
  bool mpi = false;                  // an MPI launcher started it: MPI_Init joins the job
  std::optional<int> rank;           // this process's rank as the launcher numbered it
  std::optional<int> local_rank;     // its rank on this node, where the launcher says
  std::optional<SlurmJob> slurm;     // inside a Slurm job
  std::optional<TorchRun> torchrun;  // started by torchrun; rank is then its RANK unless an MPI launcher says
  bool first_rank() const { return !rank || *rank == 0; }
};

Launcher detect_launcher(const std::map<std::string, std::string>& environment);
Launcher detect_launcher();  // this process's environment

}  // namespace commtune
