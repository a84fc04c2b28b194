#!/usr/bin/env bash
# A/A soundness on a real MPI run: the default measured twice under two names
# (configs/aa-soundness.json) must yield no winner after the end-of-sweep tuning.
source "$(dirname "$0")/tune_common.sh"
say "sweep: default and default-again (the same thing) on 4 ranks"
"${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$SRC/configs/aa-soundness.json" --out "$WORK/aa.json" > "$WORK/aa.txt"
[ -f "$WORK/aa.tune.json" ] || die "no recommendation written next to the results"
sed -n '/commtune tune/,$p' "$WORK/aa.txt"
winners=$(json_get "$WORK/aa.tune.json" "sum(1 for s in d['sizes'] if s['winner'])")
best=$(json_get "$WORK/aa.tune.json" "d['defaults_best']")
say "size winners: $winners, defaults best: $best"
[ "$winners" = 0 ] || die "A/A run produced $winners false winner(s)"
[ "$best" = True ] || die "A/A run did not conclude that the defaults are best"
# Every job-wide choice keeps the default; no size has a winner, confirmed or not.
python3 - "$WORK/aa.tune.json" <<'PY' || die "A/A recommendation"
import json, sys
rec = json.load(open(sys.argv[1]))
assert rec["choices"] and all(c["setting"] == "default" for c in rec["choices"]), rec["choices"]
assert rec["sizes"] and all(not s["winner"] and not s["confirmed"] for s in rec["sizes"]), rec["sizes"]
PY
echo PASS
