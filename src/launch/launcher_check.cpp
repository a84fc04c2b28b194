#include "launch/launcher_check.hpp"

#include <string>

#include "core/errors.hpp"

namespace commtune {

void refuse_unsupported_launcher(const Launcher& launcher) {
  if (!launcher.torchrun || launcher.mpi) return;  // an MPI launcher's ranks are commtune's ranks
  const std::optional<int> world = launcher.torchrun->world_size;
  if (world && *world <= 1) return;
  throw InputError(
      "started by torchrun (TORCHELASTIC_RUN_ID set, WORLD_SIZE " +
      (world ? std::to_string(*world) : "unknown") +
      "): commtune's ranks do not join torchrun's rendezvous, so each process would run a job of its own; "
      "on one node run commtune once without a launcher (one worker per GPU), across nodes under mpirun or "
      "srun (one rank per GPU); from inside a torchrun job, start it with TORCHELASTIC_RUN_ID unset");
}

}  // namespace commtune
