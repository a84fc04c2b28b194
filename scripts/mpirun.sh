#!/usr/bin/env bash
# mpirun with the flags a single machine needs: --oversubscribe (more ranks than cores is fine for
# a host-memory sweep) and, as root, Open MPI's explicit consent. Usage: scripts/mpirun.sh -np 4 CMD...
set -euo pipefail
flags=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
exec mpirun "${flags[@]}" "$@"
