#!/usr/bin/env bash
# Inside the emulated cluster (4 nodes, 2 slots each): mpirun with the hostfile and the launch
# agent. The MPI backend's layout, whole lines when stdout and stderr share one stream, simulated
# NCCL workers with GPU = local rank on every node, and a node shaped to 100 Mbit (a sweep, and the
# doctor naming it as the slow node).
source "$(dirname "$0")/common.sh"

say "mpirun -np 8 on 4 nodes: MPI backend"
"${MPIRUN[@]}" -np 8 "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/mpi.json" > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" "$WORK/mpi.json"
"${LAYOUT[@]}" "$WORK/mpi.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices cpu --launcher mpirun \
  --launcher-local-ranks --min-cases 24

say "stdout and stderr in one stream: every line whole (table rows, comments, commtune: lines, progress)"
"${MPIRUN[@]}" -np 8 "$COMMTUNE" sweep "${SMALL[@]}" --out "$WORK/both.json" > "$WORK/both.txt" 2>&1
bad=$(grep -cvE '^#|^ +[0-9]+ +[0-9]+ +[a-z0-9]+ +[a-z]+ +-?[0-9]+ |^commtune: |^\[[0-9]+/[0-9]+\] ' "$WORK/both.txt" || true)
[ "$bad" -eq 0 ] || { grep -vnE '^#|^ +[0-9]+ +[0-9]+ +[a-z0-9]+ +[a-z]+ +-?[0-9]+ |^commtune: |^\[[0-9]+/[0-9]+\] ' "$WORK/both.txt"; die "$bad broken or foreign line(s)"; }
rows=$(grep -c '^ \+[0-9]' "$WORK/table.txt")
[ "$(grep -c '^ \+[0-9]' "$WORK/both.txt")" -eq "$rows" ] || die "not the $rows table rows of the same sweep on stdout alone"

say "mpirun -np 8: simulated NCCL workers on every node, GPU = local rank"
"${MPIRUN[@]}" -np 8 "$SIMULATED" sweep --backend nccl -b 1K -e 1M -f 32 --max-time 0.05 --out "$WORK/nccl.json" \
  > "$WORK/table.txt" 2> "$WORK/err.txt"
check_names_nodes "$WORK/table.txt" "$WORK/err.txt" "$WORK/nccl.json"
"${LAYOUT[@]}" "$WORK/nccl.json" --nranks 8 --nodes 4 --ranks-per-node 2 --devices local-rank --launcher mpirun \
  --launcher-local-ranks --min-cases 18

say "mpirun -np 8: the NCCL doctor maps the 4 nodes, then the GPUs inside every node at once; rank 5 starved of the CPU"
status=0
"${MPIRUN[@]}" -np 8 -x COMMTUNE_SIMULATED_CPU_SHARE=5:0.3 "$SIMULATED" doctor --backend nccl --quick --system-root "$ROOT/tests/fixtures/systems/pcie-4gpu" \
  --json "$WORK/doctor-nccl.json" > "$WORK/doctor-nccl.txt" 2>&1 || status=$?
[ "$status" -le 1 ] || { tail -20 "$WORK/doctor-nccl.txt"; die "NCCL doctor exit $status"; }
python3 - "$WORK/doctor-nccl.json" "$WORK/doctor-nccl.txt" <<'PY' || { cat "$WORK/doctor-nccl.txt"; die "NCCL doctor's maps"; }
import json, sys
d = json.load(open(sys.argv[1]))
# The terminal: one `# commtune doctor:` map header per node of the findings file, in its order.
hosts = [m["host"] for m in d["node_gpus"]["maps"]]
headers = [l.split() for l in open(sys.argv[2]) if l.startswith("# commtune doctor: ")]
named = [h for words in headers for h in hosts
         if any(w == "node" and nxt.rstrip(",:") == h for w, nxt in zip(words, words[1:]))]
assert named == hosts, (named, headers)
assert d["pairwise"]["member"] == "node" and d["pairwise"]["members"] == ["n1", "n2", "n3", "n4"], d["pairwise"]
maps = d["node_gpus"]["maps"]
assert [m["host"] for m in maps] == ["n1", "n2", "n3", "n4"], maps
ranks = []
for m in maps:
    p = m["pairwise"]
    assert p["member"] == "rank" and len(p["members"]) == 2, p
    assert p["gbps"][0][1] > 0 and p["gbps"][1][0] > 0 and p["latency_us"][0][1] > 0, p
    ranks += p["members"]
assert sorted(ranks) == sorted("rank %d" % r for r in range(8)), ranks
assert "failure" not in d["node_gpus"] and "pairwise_failure" not in d, d
assert not [f for f in d["findings"] if f["id"] in ("pairwise-map-failed", "slow-gpu", "slow-pair", "slow-node")], d["findings"]
stragglers = [f["subject"] for f in d["findings"] if f["id"] == "straggler"]
assert stragglers == ["rank 5 (host n3)"], d["findings"]
PY

say "mpirun -np 9, 3 ranks on each of 3 nodes: the NCCL doctor names a slow GPU pair inside n2, confirmed alone"
# Simulated workers slow a link between their communicator's members 1 and 2 where told: only n2's
# local ranks 1 and 2 are (its node map's members 1 and 2, ranks 4 and 5); no node-map member is.
cat > "$WORK/slow-in-n2.sh" <<'SH'
#!/bin/bash
export COMMTUNE_SIMULATED_GPUS=4
if [ "$(hostname)" = n2 ] && [ "${OMPI_COMM_WORLD_LOCAL_RANK:-0}" -ge 1 ]; then export COMMTUNE_SIMULATED_SLOW_LINK=1-2; fi
exec "$@"
SH
status=0
"${MPIRUN[@]}" -np 9 --map-by ppr:3:node --oversubscribe bash "$WORK/slow-in-n2.sh" "$SIMULATED" doctor --backend nccl \
  --quick --system-root "$ROOT/tests/fixtures/systems/pcie-4gpu" --json "$WORK/doctor-gpu-pair.json" \
  > "$WORK/doctor-gpu-pair.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] || { tail -30 "$WORK/doctor-gpu-pair.txt"; die "NCCL doctor with a slow GPU pair: exit $status, not 1"; }
python3 - "$WORK/doctor-gpu-pair.json" <<'PY' || { cat "$WORK/doctor-gpu-pair.txt"; die "the slow GPU pair of n2"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert [m["host"] for m in d["node_gpus"]["maps"]] == ["n1", "n2", "n3"], d["node_gpus"]
pairs = [f for f in d["findings"] if f["id"].startswith("slow-pair")]
assert [(f["id"], f["subject"]) for f in pairs] == [("slow-pair", "rank 4 <-> rank 5 (GPUs of node n2)")], pairs
assert "confirmed measured alone" in pairs[0]["evidence"], pairs[0]
assert not [f for f in d["findings"] if f["id"].startswith(("slow-gpu", "slow-node"))], d["findings"]
PY

say "n4 shaped to 100 Mbit: compare against the unshaped run exits 1, large sizes slower than the link allows"
ALLREDUCE=(sweep --collectives allreduce --placement out -b 8K -e 2M -f 16 -n 8 -w 1)
"${MPIRUN[@]}" -np 8 "$COMMTUNE" "${ALLREDUCE[@]}" --out "$WORK/fast.json" > /dev/null 2>&1
bash "$ROOT/scripts/cluster.sh" shape n4 100mbit
"${MPIRUN[@]}" -np 8 "$COMMTUNE" "${ALLREDUCE[@]}" --out "$WORK/slow.json" > /dev/null 2>&1
bash "$ROOT/scripts/cluster.sh" unshape n4
status=0
"$COMMTUNE" compare "$WORK/fast.json" "$WORK/slow.json" --format json --out "$WORK/compare.json" || status=$?
[ "$status" -eq 1 ] || die "compare exit $status, wanted 1 (slower)"
python3 "$HERE/check_slow_node.py" "$WORK/fast.json" "$WORK/slow.json" "$WORK/compare.json" --rate-bits 100e6
say "doctor, one rank per node, n4 shaped to 100 Mbit: n4 is the slow node, and no other"
bash "$ROOT/scripts/cluster.sh" shape n4 100mbit
status=0
"${MPIRUN[@]}" --map-by ppr:1:node -np 4 "$COMMTUNE" doctor --quick --json "$WORK/doctor.json" > "$WORK/doctor.txt" 2>&1 || status=$?
bash "$ROOT/scripts/cluster.sh" unshape n4
[ "$status" -eq 1 ] || { tail -20 "$WORK/doctor.txt"; die "doctor exit $status, wanted 1 (a critical finding)"; }
python3 - "$WORK/doctor.json" <<'PY' || die "doctor's slow node"
import json, sys
d = json.load(open(sys.argv[1]))
slow = [f["subject"] for f in d["findings"] if f["id"] == "slow-node"]
assert slow == ["node n4"], d["findings"]
assert d["pairwise"]["members"] == ["n1", "n2", "n3", "n4"], d["pairwise"]["members"]
PY
say "doctor, one rank per node, the route n2 <-> n4 shaped to 100 Mbit: that pair, confirmed alone, and no slow node"
bash "$ROOT/scripts/cluster.sh" shape-pair n2 n4 100mbit
status=0
"${MPIRUN[@]}" --map-by ppr:1:node -np 4 "$COMMTUNE" doctor --quick --json "$WORK/doctor-pair.json" > "$WORK/doctor-pair.txt" 2>&1 || status=$?
bash "$ROOT/scripts/cluster.sh" unshape-pair n2 n4
[ "$status" -eq 1 ] || { tail -20 "$WORK/doctor-pair.txt"; die "doctor exit $status, wanted 1 (a warning)"; }
python3 - "$WORK/doctor-pair.json" <<'PY' || die "doctor's slow pair"
import json, sys
d = json.load(open(sys.argv[1]))
ids = [(f["id"], f["subject"]) for f in d["findings"] if f["id"].startswith(("slow-pair", "slow-node"))]
assert ids == [("slow-pair", "n2 <-> n4")], d["findings"]
g = d["pairwise"]["gbps"]
assert max(g[1][3], g[3][1]) < 0.0125 * 1.1, g  # 100 Mbit/s is 0.0125 GB/s
PY
echo "cluster mpirun checks: all passed"
