#!/usr/bin/env bash
# Inside the emulated cluster with Slurm (4 nodes, 2 CPUs and 2 GRES GPUs each): srun --mpi=pmix
# (the MPI backend; simulated NCCL workers with --gpus-per-task=1) and salloc ... mpirun; the
# layout and the Slurm job recorded in the provenance.
source "$(dirname "$0")/common.sh"

say "srun --mpi=pmix -N 4 -n 8: MPI backend, Slurm launch recorded"
srun --mpi=pmix -N 4 -n 8 "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/srun.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" mpi
"${LAYOUT[@]}" "$WORK/srun.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices cpu --launcher srun --slurm \
  --launcher-local-ranks --min-cases 24

say "srun --gpus-per-task=1: simulated NCCL workers, one visible GPU per task"
srun --mpi=pmix -N 4 -n 8 --gpus-per-task=1 "$SIMULATED" sweep --backend nccl -b 1K -e 1M -f 32 --max-time 0.05 \
  --out "$WORK/gpus.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" nccl
"${LAYOUT[@]}" "$WORK/gpus.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices per-task --launcher srun --slurm \
  --launcher-local-ranks --min-cases 18

say "salloc -N 4 -n 8 mpirun: ranks from Open MPI, the job from Slurm"
salloc -N 4 -n 8 mpirun "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/salloc.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" mpi
"${LAYOUT[@]}" "$WORK/salloc.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices cpu --launcher mpirun --slurm \
  --launcher-local-ranks --min-cases 24
echo "cluster slurm checks: all passed"
