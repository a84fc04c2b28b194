#!/usr/bin/env bash
# --budget under mpirun -np 2: the plan is fitted before it starts (the plan line on stderr counts
# the cases the results then hold, the cuts are the results' warnings and the table's `# warning:`
# lines, budget_s in the results), the sweep completes with every planned case once; an ample
# budget runs the plan as asked; a budget sweep cut short resumes with the same --budget and is
# refused with another one.
source "$(dirname "$0")/common.sh"
CONFIG="$COMMTUNE_SOURCE_DIR/configs/tune-allreduce.json"
sweep() { "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$CONFIG" -b 1K -e 1M --no-report "$@"; }

# check_plan ERR RESULTS BUDGET: one `commtune: plan for --budget BUDGET:` line on stderr, whose case
# count is the number of cases in the results (every planned case once, raced-out ones included).
check_plan() {
  python3 - "$@" <<'PY' || die "the plan line of --budget $3: $(cat "$1")"
import json, re, sys
err, results, budget = sys.argv[1:]
prefix = f"commtune: plan for --budget {budget}: "
lines = [l for l in open(err).read().splitlines() if l.startswith(prefix)]
assert len(lines) == 1, lines
planned = int(re.match(r"(\d+) cases\b", lines[0][len(prefix):]).group(1))
cases = json.load(open(results))["cases"]
assert planned == len(cases), (planned, len(cases))
keys = [(c["setting"], c["collective"], c["bytes"], c["placement"]) for c in cases]
assert len(keys) == len(set(keys)), "a case twice"
PY
}

say "an ample budget: the plan as asked"
sweep --budget 1h --out "$WORK/ample.json" > "$WORK/ample.txt" 2> "$WORK/ample.err" || { cat "$WORK/ample.err"; die "ample budget failed"; }
check_plan "$WORK/ample.err" "$WORK/ample.json" 1h00m
"$CHECK" "$WORK/ample.json" --nranks 2 --min-cases 4
python3 - "$WORK/ample.json" "$CONFIG" <<'PY' || die "an ample budget changed the plan"
import json, sys
doc, config = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["sweep"]
s = doc["sweep"]
assert s["budget_s"] == 3600, s
assert s["factor"] == config["factor"] and s["sampling"]["max_time"] == config["max_time"], (s, config)
assert "racing" in s, s  # the preset's settings race unless the budget turns racing off
assert not [w for w in doc["warnings"] if "--budget" in w], doc["warnings"]
PY
grep -q '^# warning: .*--budget' "$WORK/ample.txt" && die "the table of an ample budget names a cut"

say "a budget the asked plan does not fit: cut, then run"
sweep --budget 1s --out "$WORK/fit.json" > "$WORK/fit.txt" 2> "$WORK/fit.err" || { cat "$WORK/fit.err"; die "budget sweep failed"; }
check_plan "$WORK/fit.err" "$WORK/fit.json" 1s
"$CHECK" "$WORK/fit.json" --nranks 2 --min-cases 4
python3 - "$WORK/fit.json" "$WORK/ample.json" "$WORK/fit.txt" <<'PY' || die "budget results"
import json, sys
fit, ample = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert fit["sweep"]["budget_s"] == 1, fit["sweep"]
# The cuts: each one a warning keyed by the budget, and the fitted plan smaller than the asked one
# (the ample budget's) in at least one of the dimensions a budget cuts.
cuts = [w for w in fit["warnings"] if w.startswith("fitted to --budget 1s: ")]
assert cuts, fit["warnings"]
f, a = fit["sweep"], ample["sweep"]
smaller = [f["factor"] > a["factor"], f["sampling"]["max_time"] < a["sampling"]["max_time"],
           "racing" not in f or f["racing"]["first_fraction"] < a["racing"]["first_fraction"]]
assert any(smaller), (f, a)
assert len(fit["cases"]) < len(ample["cases"]) or f["sampling"]["max_time"] < a["sampling"]["max_time"], "nothing cut"
# The table shows the results' warnings, each on a `# warning:` line.
table = [l[len("# warning: "):] for l in open(sys.argv[3]).read().splitlines() if l.startswith("# warning: ")]
assert table == fit["warnings"], (table, fit["warnings"])
PY
# The budget covers the re-measure: it ran all its rounds, or its one budget note says it was cut.
python3 - "$WORK/fit.tune.json" <<'PY' || die "the re-measure under the budget"
import json, sys
rec = json.load(open(sys.argv[1]))
cut = [n for n in rec["notes"] if n.startswith("--budget 1s: ")]
if cut:
    assert len(cut) == 1 and rec["confirm_rounds"] < 5, (rec["confirm_rounds"], rec["notes"])
    assert rec["confirm_rounds"] > 0 or not rec["confirmed"], rec
else:
    assert rec["confirm_rounds"] == 5, (rec["confirm_rounds"], rec["notes"])
PY

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
error_names --resume "$WORK/part.json" --budget  # the file refused, and the option to resume it with
[ ! -e "$WORK/no.json" ] || die "a refused resume wrote a file"
say "ok"
