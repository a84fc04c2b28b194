#!/usr/bin/env bash
# scripts/bench-paced-groups.sh under mpirun -np 2, few samples: one line per size (1, 2, 4 MiB),
# each with the groups of 8, 4, 3 and 2 in that order, every time positive, the groups of 8 at
# ratio 1.000 and every other ratio its median over the groups of 8's (as printed, to rounding).
# Skipped, saying so, without mpicxx.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v mpicxx > /dev/null || { echo "bench-paced-groups: not checked: no mpicxx here"; exit 0; }
out=$(bash "$src/scripts/bench-paced-groups.sh" 2 5 1)
echo "$out"
python3 - "$out" <<'PY'
import re, sys
lines = [l for l in sys.argv[1].splitlines() if " B  per call" in l]
assert [int(l.split()[0]) for l in lines] == [1 << 20, 2 << 20, 4 << 20], lines
for l in lines:
    groups = re.findall(r"groups of (\d+): ([0-9.]+) \(([0-9.]+)\)", l)
    assert [int(g) for g, _, _ in groups] == [8, 4, 3, 2], l
    of8 = float(groups[0][1])
    assert of8 > 0 and groups[0][2] == "1.000", l
    for _, us, ratio in groups[1:]:
        assert float(us) > 0 and abs(float(ratio) - float(us) / of8) < 0.002 + 0.1 / of8, l
PY
echo "bench-paced-groups: all checks passed"
