#!/usr/bin/env bash
# The main job from a fresh machine: install, build, then sweep all-reduce, all-gather and
# broadcast on local ranks. Where GPUs are visible: NCCL with configs/nccl-quick.json, one worker
# per GPU, no launcher needed. Elsewhere: Open MPI on host memory with configs/quick.json.
# Extra arguments go to `commtune sweep` (e.g. --config configs/openmpi-algorithms.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh > build.log 2>&1 || { tail -n 40 build.log; exit 1; }
echo "quickstart: built build/commtune (log: build.log)"
ranks=${COMMTUNE_RANKS:-$(( $(nproc) < 4 ? 4 : $(nproc) > 8 ? 8 : $(nproc) ))}
if build/commtune info | grep -q '^visible GPUs: [1-9]'; then
  exec build/commtune sweep --config configs/nccl-quick.json "$@"
fi
exec bash scripts/mpirun.sh -np "$ranks" build/commtune sweep --config configs/quick.json "$@"
