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
# The table's `# commtune sweep:` line and the `commtune:` banner on stderr each state the layout
# once, and it is the one the results record: their ranks, nodes and ranks per node are the
# counts of provenance.layout (check_layout.py then checks that layout against the cluster).
check_names_nodes() {  # TABLE ERR RESULTS
  python3 - "$@" <<'PY' || { head -3 "$1"; cat "$2"; die "$1, $2: not the layout of $3"; }
import json, re, sys
layout = json.load(open(sys.argv[3]))["provenance"]["layout"]
want = (layout["nranks"], len(layout["local_sizes"]), layout["local_sizes"][0])
counts = re.compile(r"\b(\d+) ranks?, (\d+) nodes?, (\d+) ranks? per node\b")
for path, prefix in ((sys.argv[1], "# commtune sweep: "), (sys.argv[2], "commtune: ")):
    stated = [tuple(map(int, m.groups())) for line in open(path) if line.startswith(prefix)
              for m in [counts.search(line)] if m]
    assert stated == [want], (path, stated, want)
PY
}
