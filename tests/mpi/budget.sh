#!/usr/bin/env bash
# --budget under mpirun -np 2: the plan is fitted before it starts (its estimate on stderr, the
# cuts among the warnings, budget_s in the results), the sweep completes with every planned case
# once; a budget sweep cut short resumes with the same --budget and is refused with another one.
source "$(dirname "$0")/common.sh"
CONFIG="$COMMTUNE_SOURCE_DIR/configs/tune-allreduce.json"
sweep() { "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$CONFIG" -b 1K -e 1M --no-report "$@"; }

say "a budget the asked plan does not fit: cut, then run"
sweep --budget 1s --out "$WORK/fit.json" > "$WORK/fit.txt" 2> "$WORK/fit.err" || { cat "$WORK/fit.err"; die "budget sweep failed"; }
grep -q "^commtune: plan for --budget 1s: [0-9]* cases (.*: about [0-9ms]*, at most [0-9ms]*; then the finalists' re-measure, in the time left (at least [0-9ms]*)$" "$WORK/fit.err" ||
  die "no plan line: $(cat "$WORK/fit.err")"
# The budget covers the re-measure: it ran all its rounds, or said what it cut.
python3 - "$WORK/fit.tune.json" <<'PY' || die "the re-measure under the budget"
import json, sys
rec = json.load(open(sys.argv[1]))
cut = [n for n in rec["notes"] if n.startswith("--budget 1s: ")]
assert rec["confirm_rounds"] == 5 and not cut or rec["confirm_rounds"] < 5 and len(cut) == 1, (rec["confirm_rounds"], rec["notes"])
PY
grep -q "^# warning: fitted to --budget 1s: " "$WORK/fit.txt" || die "the table does not say what was cut"
"$CHECK" "$WORK/fit.json" --nranks 2 --min-cases 4
python3 - "$WORK/fit.json" <<'PY' || die "budget results"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["sweep"]["budget_s"] == 1, doc["sweep"]
cuts = [w for w in doc["warnings"] if w.startswith("fitted to --budget 1s: ")]
assert cuts, doc["warnings"]
# The asked plan: 1 KiB to 1 MiB by x2 (11 sizes), max time 0.5 s; what is left is smaller.
s = doc["sweep"]
assert s["factor"] > 2 or s["sampling"]["max_time"] < 0.5 or s.get("racing", {}).get("first_fraction", 1) < 1 / 16, s
keys = [(c["setting"], c["collective"], c["bytes"], c["placement"]) for c in doc["cases"]]
assert len(keys) == len(set(keys)), "a case twice"
PY

say "an ample budget changes nothing"
sweep --budget 1h --out "$WORK/ample.json" > "$WORK/ample.txt" 2> "$WORK/ample.err" || die "ample budget failed"
grep -q "fitted to" "$WORK/ample.txt" && die "an ample budget cut the plan"
grep -q "^commtune: plan for --budget 1h00m: " "$WORK/ample.err" || die "no plan line"

say "cut short, resumed with the same budget; another budget refused with the hint"
python3 - "$WORK/fit.json" "$WORK/part.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"] = doc["cases"][:3]
doc["complete"] = False
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
sweep --budget 1s --resume "$WORK/part.json" --out "$WORK/resumed.json" > /dev/null 2> "$WORK/resume.err" || { cat "$WORK/resume.err"; die "resume with the same budget failed"; }
python3 - "$WORK/fit.json" "$WORK/resumed.json" <<'PY' || die "resumed cases"
import json, sys
keys = lambda p: sorted((c["setting"], c["collective"], c["bytes"], c["placement"]) for c in json.load(open(p))["cases"])
assert keys(sys.argv[1]) == keys(sys.argv[2])
PY
expect_exit 2 sweep --budget 1h --resume "$WORK/part.json" --out "$WORK/no.json"
grep -q "refused: its sweep options are not this plan's .*; a sweep fitted to --budget resumes with the same --budget" "$WORK/err.txt" ||
  die "no hint: $(cat "$WORK/err.txt")"
[ ! -e "$WORK/no.json" ] || die "a refused resume wrote a file"
say "ok"
