# Shared by the checks that run inside the emulated cluster (scripts/cluster.sh runs them on n1).
# $1 commtune, $2 commtune-simulated, $3 the work directory (shared by every node: one filesystem).
set -euo pipefail
COMMTUNE=$1
SIMULATED=$2
WORK=$3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
read -r -a MPIRUN <<< "$CLUSTER_MPIRUN"
LAYOUT=(python3 "$HERE/check_layout.py")
say() { echo "== [${SECONDS}s] $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
# Small sweeps: 5 sizes of three collectives, both placements (26 cases: all-gather needs 8 elements).
SMALL=(-b 8 -e 32K -f 8 --max-time 0.05)
# The table's first line and the banner name ranks, nodes and ranks per node.
check_names_nodes() {  # TABLE ERR BACKEND
  grep -q "^# commtune sweep: backend $3, 8 ranks, 4 nodes, 2 ranks per node, " "$1" || { head -3 "$1"; die "$1: the table does not name the nodes"; }
  grep -q "^commtune: .*, 8 ranks, 4 nodes, 2 ranks per node" "$2" || { cat "$2"; die "$2: the banner does not name the nodes"; }
}
