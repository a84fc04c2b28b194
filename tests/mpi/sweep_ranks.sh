#!/usr/bin/env bash
# A sweep of all-reduce, all-gather and broadcast under mpirun -np N: results valid, every busbw
# recomputes, #wrong 0, the layout of one node, and the table's ranks, nodes, cases and wrong
# elements those of the results; then reduce-scatter and a broadcast rooted off rank 0.
source "$(dirname "$0")/common.sh"
for np in 2 3 4; do
  say "mpirun -np $np"
  "${MPIRUN[@]}" -np "$np" "$COMMTUNE" sweep -b 8 -e 256K -f 8 --max-time 0.05 --out "$WORK/np$np.json" > "$WORK/table.txt"
  "$CHECK" "$WORK/np$np.json" --nranks "$np" --min-cases 30
  table_agrees "$WORK/table.txt" "$WORK/np$np.json"
  python3 - "$WORK/np$np.json" "$np" <<'PY' || die "layout of one node"
import json, sys
doc, np = json.load(open(sys.argv[1])), int(sys.argv[2])
layout, launcher = doc["provenance"]["layout"], doc["provenance"]["launcher"]
assert layout["nhosts"] == 1 and layout["local_sizes"] == [np], layout
assert [r["local_rank"] for r in layout["ranks"]] == list(range(np)), layout["ranks"]
assert all(r["node"] == 0 and r["device"] == "cpu" and r["launcher_local_rank"] == r["local_rank"] for r in layout["ranks"])
assert launcher == {"name": "mpirun"}, launcher
PY
done
say "mpirun -np 3: reduce-scatter, and broadcast from rank 2, both placements"
"${MPIRUN[@]}" -np 3 "$COMMTUNE" sweep --collectives reducescatter,broadcast -r 2 -b 48 -e 192K -f 8 --max-time 0.05 \
  --out "$WORK/scatter.json" > "$WORK/table.txt"
"$CHECK" "$WORK/scatter.json" --nranks 3 --min-cases 20
table_agrees "$WORK/table.txt" "$WORK/scatter.json"
say "no launcher: one rank"
"$COMMTUNE" sweep --backend mpi -b 1K -e 4K -f 2 --max-time 0.02 --out "$WORK/single.json" > /dev/null
"$CHECK" "$WORK/single.json" --nranks 1 --min-cases 6
python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["provenance"]; assert p["launcher"] == {"name": "none"} and p["layout"]["local_sizes"] == [1], p["launcher"]' \
  "$WORK/single.json" || die "a launcher-free run recorded a launcher"
say "mpirun -np 2: a broadcast's paced groups, 8 calls or more (up to 256, as many as a barrier lasts) where a call is short, fewer where one takes milliseconds"
"${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --collectives broadcast -b 8 -e 64M -i 67108856 --placement out --max-time 0.05 \
  --out "$WORK/paced.json" > /dev/null
"$CHECK" "$WORK/paced.json" --nranks 2 --min-cases 2
python3 - "$WORK/paced.json" <<'PY' || die "paced groups"
import json, sys
cases = {c["bytes"]: c for c in json.load(open(sys.argv[1]))["cases"]}
small, large = cases[8], cases[64 << 20]
assert small["sample"] == "block" and 8 <= small["sample_block"] <= 256, small
assert small["cost"]["timed_calls"] == small["time_us"]["samples"] * small["sample_block"], small
# A 64 MiB host broadcast takes milliseconds (memory at tens of GB/s at most): 4 ms need fewer calls.
assert large["sample"] == "block" and 1 <= large["sample_block"] < 8, large
assert large["cost"]["timed_calls"] == large["time_us"]["samples"] * large["sample_block"], large
PY
