#!/usr/bin/env bash
# The margin a winner must clear is one value per sweep: the config's "margin" or --margin (the flag
# wins) reaches racing, the end-of-sweep re-measure and tuning (the recommendation beside the results),
# and the results file, from which `tune` takes it unless given --margin; tuning below the margin the
# race decided with carries a note. Asserted on the files' data, not on wording.
source "$(dirname "$0")/common.sh"
cat > "$WORK/c.json" <<'JSON'
{"name": "margin", "backend": "mpi",
 "sweep": {"min_bytes": "1K", "max_bytes": "16K", "factor": 4, "collectives": ["allreduce"],
           "min_time": 0.005, "max_time": 0.02, "margin": 0.3},
 "settings": [{"name": "default"},
              {"name": "ring", "knobs": {"coll_tuned_allreduce_algorithm": "ring"}},
              {"name": "linear", "knobs": {"coll_tuned_allreduce_algorithm": "basic_linear"}}]}
JSON
sweep() { "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$WORK/c.json" --no-report "$@"; }

say "the config's margin reaches the results and the end-of-sweep tuning"
sweep --out "$WORK/config.json" > "$WORK/config.txt" 2> "$WORK/config.err" || die "sweep: $(cat "$WORK/config.err")"
say "--margin wins over the config's"
sweep --margin 0.25 --out "$WORK/flag.json" > /dev/null 2> "$WORK/flag.err" || die "sweep: $(cat "$WORK/flag.err")"
"$COMMTUNE" tune "$WORK/flag.json" --out "$WORK/retuned.json" > /dev/null
"$COMMTUNE" tune "$WORK/flag.json" --margin 0.05 --out "$WORK/narrow.json" > /dev/null
python3 - "$WORK" <<'PY' || die "the margin did not flow"
import json, sys
w = sys.argv[1]
load = lambda name: json.load(open(f"{w}/{name}"))
config, flag = load("config.json"), load("flag.json")
assert config["sweep"]["margin"] == 0.3, config["sweep"]
assert "racing" in config["sweep"], "three settings race"
assert load("config.tune.json")["min_margin"] == 0.3
assert flag["sweep"]["margin"] == 0.25, flag["sweep"]
assert load("flag.tune.json")["min_margin"] == 0.25
assert load("retuned.json")["min_margin"] == 0.25, "tune takes the sweep's margin"
narrow = load("narrow.json")
assert narrow["min_margin"] == 0.05
assert any("25.0%" in n for n in narrow["notes"]), narrow["notes"]
assert not any("25.0%" in n for n in load("retuned.json")["notes"])
# No setting wins by less than the margin, in the sweep's own tuning.
for size in load("config.tune.json")["sizes"]:
    if size.get("winner"):
        assert size["gain"] >= 0.3, size
PY
echo "PASS"
