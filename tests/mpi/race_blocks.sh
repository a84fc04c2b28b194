#!/usr/bin/env bash
# A raced sweep of broadcasts under mpirun -np 4: every racing round of a case samples in round 0's
# paced group (StoppingRule::carried_block), so a case's pooled samples all stand for the same calls:
# its timed calls are exactly its samples times its block. Groups vary from case to case (2 to 4
# calls at 2 MiB, 8 or more at a few bytes), so a later round that chose its own group would break
# the count. At least one case must have run several rounds, else the check says nothing.
source "$(dirname "$0")/common.sh"
cat > "$WORK/config.json" <<'JSON'
{"name": "race-blocks", "backend": "mpi",
 "sweep": {"collectives": ["broadcast"], "min_time": 0.002, "max_time": 0.006, "noise_target": 0.001},
 "settings": [{"name": "default"},
              {"name": "binomial", "collectives": ["broadcast"], "knobs": {"coll_tuned_bcast_algorithm": "binomial"}},
              {"name": "binary-tree", "collectives": ["broadcast"],
               "knobs": {"coll_tuned_bcast_algorithm": "binary_tree"}}]}
JSON
say "raced broadcasts, 8 B to 2 MiB"
"${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$WORK/config.json" -b 8 -e 2M -f 16 --no-report \
  --out "$WORK/r.json" > "$WORK/r.txt" 2> "$WORK/r.err" || die "raced sweep: $(cat "$WORK/r.err")"
python3 - "$WORK/r.json" "$WORK/r.txt" <<'PY' || die "a case's rounds sampled in different blocks"
import json, re, sys
doc = json.load(open(sys.argv[1]))
blocks = 0
for c in doc["cases"]:
    if c["status"] != "ok":
        continue
    assert c.get("sample") == "block", (c["setting"], c["bytes"], c.get("sample"))
    calls, samples, block = c["cost"]["timed_calls"], c["time_us"]["samples"], c["sample_block"]
    assert calls == samples * block, (c["setting"], c["bytes"], c["placement"], calls, samples, block)
    blocks += 1
assert blocks >= 10, blocks
later = [int(n) for r, n in re.findall(r"^# racing round (\d+) of at most \d+: (\d+) cases", open(sys.argv[2]).read(), re.M)
         if int(r) >= 2]
assert sum(later) >= 1, "no case ran more than one racing round"
print(f"{blocks} broadcast cases, {sum(later)} case rounds after the first: every case's calls = samples x block")
PY
