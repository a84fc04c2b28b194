#!/usr/bin/env bash
# Inside the emulated cluster (4 nodes, 2 slots each): communicator groups across real node
# boundaries. world, intra-node and inter-node record 1 group of 8 ranks on 4 nodes, 4 groups of 2
# ranks on 1 node each, 2 groups of 4 ranks on 4 nodes; with n4's link shaped to 100 Mbit the
# inter-node groups' figures drop and the intra-node groups' do not. Both backends: MPI, and NCCL
# through the simulated workers (commtune-simulated), whose model cannot feel tc's shaping: it is
# told of n4's slow link (COMMTUNE_SIMULATED_SLOW_RANK=6,7 under a 10 GB/s network between nodes,
# COMMTUNE_SIMULATED_NODE_LINK_GBPS), and the NCCL backend's supervisors, workers, splits and
# per-group tally run across the real node boundaries.
source "$(dirname "$0")/common.sh"
GROUPS_SWEEP=(sweep --collectives allreduce --placement out -b 64K -e 1M -f 16 -n 6 -w 1
              --groups "world,intra-node,inter-node")

say "mpirun -np 8 on 4 nodes: world, intra-node and inter-node at once"
"${MPIRUN[@]}" -np 8 "$COMMTUNE" "${GROUPS_SWEEP[@]}" --out "$WORK/fast.json" > "$WORK/fast.txt" 2> "$WORK/err.txt" \
  || { cat "$WORK/err.txt"; die "grouped sweep"; }
say "n4 shaped to 100 Mbit"
bash "$ROOT/scripts/cluster.sh" shape n4 100mbit
status=0
"${MPIRUN[@]}" -np 8 "$COMMTUNE" "${GROUPS_SWEEP[@]}" --out "$WORK/slow.json" > /dev/null 2> "$WORK/err.txt" || status=$?
bash "$ROOT/scripts/cluster.sh" unshape n4
[ "$status" -eq 0 ] || { cat "$WORK/err.txt"; die "grouped sweep on the shaped cluster: exit $status"; }

say "the same with simulated NCCL workers: a 10 GB/s network, then n4 (ranks 6, 7) behind a slow link"
NET=(-x COMMTUNE_SIMULATED_NODE_LINK_GBPS=10)
"${MPIRUN[@]}" -np 8 "${NET[@]}" "$SIMULATED" "${GROUPS_SWEEP[@]}" --backend nccl --out "$WORK/nccl-fast.json" \
  > /dev/null 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; die "grouped NCCL sweep"; }
"${MPIRUN[@]}" -np 8 "${NET[@]}" -x COMMTUNE_SIMULATED_SLOW_RANK=6,7 "$SIMULATED" "${GROUPS_SWEEP[@]}" --backend nccl \
  --out "$WORK/nccl-slow.json" > /dev/null 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; die "grouped NCCL sweep, slow n4"; }

check_groups() {  # FAST SLOW FLOOR_BITS_PER_S (0: no floor)
python3 - "$@" <<'PY' || die "$1, $2: the groups' shapes, members and figures"
import json, sys
fast, slow = (json.load(open(p)) for p in sys.argv[1:3])
link_bps = float(sys.argv[3])
hosts = fast["provenance"]["layout"]["hosts"]
def by_spec(doc):
    out = {}
    for c in doc["cases"]:
        assert c["status"] == "ok" and c["wrong"] == 0, c
        out.setdefault(c.get("group", "world"), {})[c["bytes"]] = c
    return out
f, s = by_spec(fast), by_spec(slow)
assert set(f) == {"world", "intra-node", "inter-node"}, set(f)
for c in f["world"].values():
    assert "groups" not in c and c["nranks"] == 8
for c in f["intra-node"].values():
    g = c["groups"]
    assert g["shape"] == "4x2x1", g["shape"]
    assert [m["ranks"] for m in g["members"]] == [[0, 1], [2, 3], [4, 5], [6, 7]], g["members"]
    assert [m["nodes"] for m in g["members"]] == [[0], [1], [2], [3]], g["members"]
for c in f["inter-node"].values():
    g = c["groups"]
    assert g["shape"] == "2x4x4", g["shape"]
    assert [m["ranks"] for m in g["members"]] == [[0, 2, 4, 6], [1, 3, 5, 7]], g["members"]
    assert all(m["nodes"] == [0, 1, 2, 3] for m in g["members"]), g["members"]
big = max(f["inter-node"])
def member_time(case, index):
    return case["groups"]["members"][index]["time_us"]["median"]
# The inter-node groups cross n4's link: slower than it allows, and much slower than unshaped. A
# ring all-reduce moves 2 (n - 1) / n of the buffer through every rank's link.
inter_fast, inter_slow = f["inter-node"][big], s["inter-node"][big]
floor_us = 2 * 3 / 4 * big * 8 / link_bps * 1e6 if link_bps > 0 else 0
for i in range(2):
    assert member_time(inter_slow, i) >= 0.8 * floor_us, (member_time(inter_slow, i), floor_us)
    assert member_time(inter_slow, i) > 3 * member_time(inter_fast, i), (inter_fast["groups"], inter_slow["groups"])
# The intra-node groups stay inside their node: every one of them, n4's own (ranks 6, 7) included,
# slows (if at all: a loaded machine slows everything) by less than a third of the inter-node
# groups' slowdown, and stays far below the shaped inter-node time.
intra_fast, intra_slow = f["intra-node"][big], s["intra-node"][big]
inter_ratio = member_time(inter_slow, 0) / member_time(inter_fast, 0)
for i in range(4):
    intra_ratio = member_time(intra_slow, i) / member_time(intra_fast, i)
    assert 3 * intra_ratio < inter_ratio, (intra_ratio, inter_ratio, intra_fast["groups"], intra_slow["groups"])
    assert member_time(intra_slow, i) * 5 < member_time(inter_slow, 0)
print("inter-node %.0f -> %.0f us, intra-node (n4) %.0f -> %.0f us at %d B" % (
    member_time(inter_fast, 0), member_time(inter_slow, 0), member_time(intra_fast, 3), member_time(intra_slow, 3), big))
PY
}
check_groups "$WORK/fast.json" "$WORK/slow.json" 100e6
check_groups "$WORK/nccl-fast.json" "$WORK/nccl-slow.json" 0
say "ok"
