#!/usr/bin/env bash
# Racing and --resume under mpirun -np 4 on the Open MPI algorithms of all-reduce:
# a raced sweep keeps every case once, the dropped ones marked raced_out (tune reads the file);
# an interrupted sweep (a results file cut short, "complete": false) resumed to completion has
# the same cases as the uninterrupted one, in a new file, the old one untouched, for an exhaustive
# and for a raced sweep; a resume against another plan or other hardware is refused with exit 2.
source "$(dirname "$0")/common.sh"
CONFIG="$COMMTUNE_SOURCE_DIR/configs/tune-allreduce.json"
SIZES=(-b 1K -e 64K -f 4 --max-time 0.04 --min-time 0.005)
sweep() { "${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$CONFIG" "${SIZES[@]}" "$@"; }
# The same cases, each sampled longer: a sweep slow enough to be stopped in the middle.
slow_sweep() { "${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$CONFIG" -b 1K -e 64K -f 4 --min-time 0.1 --max-time 0.15 "$@"; }

# cut FILE OUT KEEP: the first KEEP cases of FILE, as an interrupted sweep leaves them.
cut_short() {
  python3 - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["cases"] = doc["cases"][: int(sys.argv[3])]
doc["complete"] = False
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
}

# same_cases A B: both files hold the same cases (setting, collective, size, placement), each once.
same_cases() {
  python3 - "$@" <<'PY'
import json, sys
def keys(path):
    doc = json.load(open(path))
    assert doc["complete"] is True, path
    ks = [(c["setting"], c["collective"], c["bytes"], c["placement"]) for c in doc["cases"]]
    assert len(ks) == len(set(ks)), path
    return set(ks)
a, b = keys(sys.argv[1]), keys(sys.argv[2])
assert a == b, (sorted(a ^ b))
PY
}

say "raced sweep"
sweep --out "$WORK/raced.json" > "$WORK/raced.txt" 2> "$WORK/raced.err"
"$CHECK" "$WORK/raced.json" --nranks 4 --min-cases 20
python3 - "$WORK/raced.json" <<'PY' || die "raced-out marks"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["sweep"]["racing"]["rounds"] == 3, doc["sweep"]
out = [c for c in doc["cases"] if "raced_out" in c]
assert out, "nothing raced out: basic_linear should lose at 64 KiB"
# Each raced-out case names the setting that beat it: another of the sweep's settings, still racing
# at that size in the round it won (raced out there in a later round, or never). A case settled in
# the indifference zone names the pick first: the pick is never raced out at that size.
settings = {s["name"] for s in doc["settings"]}
round_out = {(c["setting"], c["collective"], c["bytes"]): c["raced_out"]["round"] for c in out}
dropped = settled = 0
for c in out:
    assert c["status"] == "ok" and c["time_us"]["samples"] > 0, c
    r = c["raced_out"]["round"]
    assert 1 <= r <= 3, c["raced_out"]
    reason = c["raced_out"]["reason"]
    if "is shown to be within" in reason:
        settled += 1
        pick = reason.split()[0]
        assert pick in settings and pick != c["setting"], (c["setting"], reason)
        assert (pick, c["collective"], c["bytes"]) not in round_out, (c, pick)
        continue
    dropped += 1
    named = [s for s in settings - {c["setting"]} if s in reason.split()]
    assert len(named) == 1, (c["setting"], c["raced_out"])
    assert round_out.get((named[0], c["collective"], c["bytes"]), 5) >= r, (c, named)
assert dropped, "no setting was clearly slower anywhere"
PY
"$COMMTUNE" tune "$WORK/raced.json" --out "$WORK/raced.rec.json" > /dev/null 2>&1 || die "tune refused a raced results file"

say "exhaustive sweep, then the same sweep interrupted and resumed"
sweep --exhaustive --out "$WORK/full.json" > /dev/null 2>&1
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "racing" not in d["sweep"] and not [c for c in d["cases"] if "raced_out" in c]' \
  "$WORK/full.json" || die "an exhaustive sweep records racing"
cut_short "$WORK/full.json" "$WORK/part.json" 9
before=$(sha256sum "$WORK/part.json")
sweep --exhaustive --resume "$WORK/part.json" --out "$WORK/part.json" > /dev/null 2> "$WORK/resume.err" || { cat "$WORK/resume.err"; die "resume failed"; }
[ "$before" = "$(sha256sum "$WORK/part.json")" ] || die "the interrupted file was changed"
[ -f "$WORK/part.1.json" ] || die "the resumed sweep did not go to a new file"
same_cases "$WORK/full.json" "$WORK/part.1.json" || die "resumed exhaustive sweep: other cases"

say "exhaustive sweep interrupted by SIGINT, resumed"
"${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$CONFIG" -b 1K -e 64K -f 4 --min-time 0.1 --max-time 0.15 --exhaustive \
  --out "$WORK/stopped.json" > /dev/null 2>&1 &  # mpirun itself: the signal goes to it
pid=$!
for _ in $(seq 1 300); do
  [ -s "$WORK/stopped.json" ] && [ "$(grep -c '"setting"' "$WORK/stopped.json" || true)" -ge 4 ] && break
  sleep 0.1
done
kill -INT "$pid"
set +e; wait "$pid"; set -e
"$CHECK" "$WORK/stopped.json" --incomplete --min-cases 2
slow_sweep --exhaustive --resume "$WORK/stopped.json" --out "$WORK/stopped-resumed.json" > /dev/null 2>&1 || die "resume after SIGINT failed"
same_cases "$WORK/full.json" "$WORK/stopped-resumed.json" || die "resumed after SIGINT: other cases"

say "raced sweep interrupted and resumed"
cut_short "$WORK/raced.json" "$WORK/raced-part.json" 5
sweep --resume "$WORK/raced-part.json" --out "$WORK/raced-resumed.json" > /dev/null 2>&1 || die "raced resume failed"
same_cases "$WORK/raced.json" "$WORK/raced-resumed.json" || die "resumed raced sweep: other cases"

say "refused: another plan, another machine, exhaustive against raced"
expect_exit 2 sweep --exhaustive --noise-target 0.05 --resume "$WORK/part.json" --out "$WORK/no.json"
error_names --resume "$WORK/part.json"
expect_exit 2 sweep --resume "$WORK/part.json" --out "$WORK/no.json"
error_names --resume "$WORK/part.json"
python3 - "$WORK/part.json" "$WORK/other-host.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["provenance"]["mpi"]["mpi_library"] = "Open MPI v5.0.0"
json.dump(doc, open(sys.argv[2], "w"))
PY
expect_exit 2 sweep --exhaustive --resume "$WORK/other-host.json" --out "$WORK/no.json"
error_names --resume "$WORK/other-host.json" provenance mpi/mpi_library  # the field that differs
[ ! -e "$WORK/no.json" ] || die "a refused resume wrote a file"
say "ok"
