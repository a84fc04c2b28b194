#!/usr/bin/env bash
# Inside the emulated cluster with Slurm (4 nodes, 2 CPUs and 2 GRES GPUs each): srun --mpi=pmix
# (the MPI backend; simulated NCCL workers with --gpus-per-task=1) and salloc ... mpirun; the
# layout and the Slurm job recorded in the provenance.
source "$(dirname "$0")/common.sh"

say "srun --mpi=pmix -N 4 -n 8: MPI backend, Slurm launch recorded"
srun --mpi=pmix -N 4 -n 8 "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/srun.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" "$WORK/srun.json"
"${LAYOUT[@]}" "$WORK/srun.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices cpu --launcher srun --slurm \
  --launcher-local-ranks --min-cases 24

say "srun --gpus-per-task=1: simulated NCCL workers, one visible GPU per task"
srun --mpi=pmix -N 4 -n 8 --gpus-per-task=1 "$SIMULATED" sweep --backend nccl -b 1K -e 1M -f 32 --max-time 0.05 \
  --out "$WORK/gpus.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" "$WORK/gpus.json"
"${LAYOUT[@]}" "$WORK/gpus.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices per-task --launcher srun --slurm \
  --launcher-local-ranks --min-cases 18

say "srun -N 4 -n 4: the doctor, one rank per node, as the sweep is launched"
status=0
srun --mpi=pmix -N 4 -n 4 "$COMMTUNE" doctor --quick --system-root "$ROOT/tests/fixtures/systems/pcie-4gpu" \
  --json "$WORK/doctor-srun.json" > "$WORK/doctor-srun.txt" 2>&1 || status=$?
[ "$status" -le 1 ] || { tail -20 "$WORK/doctor-srun.txt"; die "doctor under srun exit $status"; }
python3 - "$WORK/doctor-srun.json" <<'PY' || die "doctor under srun"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pairwise"]["member"] == "node" and d["pairwise"]["members"] == ["n1", "n2", "n3", "n4"], d["pairwise"]
assert not [f for f in d["findings"] if f["id"] in ("slow-node", "slow-pair")], d["findings"]
PY

say "srun -N 4 -n 8 --gpus-per-task=1: the NCCL doctor maps the nodes, then the GPUs inside every node"
status=0
srun --mpi=pmix -N 4 -n 8 --gpus-per-task=1 "$SIMULATED" doctor --backend nccl --quick \
  --system-root "$ROOT/tests/fixtures/systems/pcie-4gpu" --json "$WORK/doctor-gpus.json" > "$WORK/doctor-gpus.txt" 2>&1 || status=$?
[ "$status" -le 1 ] || { tail -20 "$WORK/doctor-gpus.txt"; die "NCCL doctor under srun exit $status"; }
python3 - "$WORK/doctor-gpus.json" <<'PY' || die "NCCL doctor under srun"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pairwise"]["members"] == ["n1", "n2", "n3", "n4"], d["pairwise"]
maps = d["node_gpus"]["maps"]
assert [m["host"] for m in maps] == ["n1", "n2", "n3", "n4"], maps
assert all(len(m["pairwise"]["members"]) == 2 and m["pairwise"]["gbps"][0][1] > 0 for m in maps), maps
assert not [f for f in d["findings"] if f["id"] in ("pairwise-map-failed", "slow-gpu", "slow-pair", "slow-node")], d["findings"]
PY

say "salloc -N 4 -n 8 mpirun: ranks from Open MPI, the job from Slurm"
salloc -N 4 -n 8 mpirun "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/salloc.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" "$WORK/salloc.json"
"${LAYOUT[@]}" "$WORK/salloc.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices cpu --launcher mpirun --slurm \
  --launcher-local-ranks --min-cases 24
echo "cluster slurm checks: all passed"
