#!/usr/bin/env bash
# The loop users run commtune for, on real Open MPI: sweep the default against forced all-reduce
# algorithms (tuning at the end, with the interleaved re-measure), tune offline too, export every
# format, source the shell file, then sweep again under the exported environment.
# So that the loop always has something to carry, the job's own environment (JOB_ENV) makes its
# default all-reduce clearly slow: Open MPI's segmented ring in 128-byte segments, tens of times
# the forced algorithms' time from 256 KiB. Every run then checks the whole round trip: a forced
# setting is recommended; the exported files set its variables (the shell file as the JSON says);
# sourced on top of the job's environment they reach the fresh sweep (its provenance); and under
# them the default is FASTER than before at every size (in at least one placement), the
# recommended ones included, and SLOWER nowhere.
source "$(dirname "$0")/tune_common.sh"
JOB_ENV=(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=5
         OMPI_MCA_coll_tuned_allreduce_algorithm_segmentsize=128)
SWEEP=(sweep --config "$SRC/configs/tune-allreduce.json" -b 256K --no-report)
FORWARD=(-x OMPI_MCA_coll_tuned_use_dynamic_rules -x OMPI_MCA_coll_tuned_allreduce_algorithm
         -x OMPI_MCA_coll_tuned_allreduce_algorithm_segmentsize)

say "sweep with end-of-sweep tuning, the job's default slowed by its environment"
env "${JOB_ENV[@]}" "${MPIRUN[@]}" -np 4 "${FORWARD[@]}" "$COMMTUNE" "${SWEEP[@]}" --out "$WORK/sweep.json" > "$WORK/sweep.txt" \
  2> "$WORK/sweep.err" || { cat "$WORK/sweep.err"; die "the sweep failed"; }
[ -f "$WORK/sweep.tune.json" ] || die "no recommendation written next to the results"
sed -n '/commtune tune/,$p' "$WORK/sweep.txt"
python3 - "$WORK/sweep.json" "$WORK/sweep.tune.json" "${JOB_ENV[@]}" <<'PY' || die "the recommendation"
import json, sys
results, rec = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
job = dict(v.split("=", 1) for v in sys.argv[3:])
env = results["provenance"]["environment"]
assert all(env.get(k) == v for k, v in job.items()), ("the job's environment is not the sweep's", env)
choice = next(c for c in rec["choices"] if c["scope"] == "allreduce")
assert choice["setting"] != "default", ("the slowed default was kept", choice, rec["sizes"])
assert rec["confirmed"] and rec["confirm_rounds"] == 5, (rec["confirmed"], rec["confirm_rounds"], rec["notes"])
assert [s for s in rec["sizes"] if s["winner"]], rec["sizes"]
PY

say "offline tune: every size won after the re-measure was won in the sweep alone"
"$COMMTUNE" tune "$WORK/sweep.json" --out "$WORK/offline.json" > /dev/null
python3 - "$WORK/sweep.tune.json" "$WORK/offline.json" <<'PY' || die "the offline recommendation"
import json, sys
swept, offline = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert offline["confirmed"] is False, offline["confirmed"]  # no re-measure offline
won = lambda rec: {(s["collective"], s["bytes"]) for s in rec["sizes"] if s["winner"]}
assert won(swept) <= won(offline), (won(swept), won(offline))
assert [s["name"] for s in swept["settings"]] == [s["name"] for s in offline["settings"]]
PY

say "export every format"
"$COMMTUNE" export "$WORK/sweep.tune.json" --format all --out-dir "$WORK/export" > /dev/null 2>&1
for f in commtune.env.sh mca-params.conf docker.env commtune-export.json ompi-coll-rules.conf; do
  [ -s "$WORK/export/$f" ] || die "export did not write $f"
done
bash -n "$WORK/export/commtune.env.sh" || die "shell export has a syntax error"
env -i bash -c "set -euo pipefail; source '$WORK/export/commtune.env.sh'" || die "sourcing the shell export failed"
"$COMMTUNE" export "$WORK/sweep.json" --format shell > /dev/null || die "export from a results file failed"
cat "$WORK/export/commtune.env.sh"
# The JSON export sets the chosen algorithm; the shell file sets exactly what the JSON says.
python3 - "$WORK/export/commtune-export.json" "$WORK/export/commtune.env.sh" <<'PY' || die "the exported variables"
import json, shlex, sys
exported = json.load(open(sys.argv[1]))
env = exported["env"]
assert env.get("OMPI_MCA_coll_tuned_use_dynamic_rules") == "1" and env.get("OMPI_MCA_coll_tuned_allreduce_algorithm"), env
shell = {}
for line in open(sys.argv[2]):
    if line.startswith("export "):
        name, value = line[len("export "):].strip().split("=", 1)
        shell[name] = shlex.split(value)[0] if value else ""
assert shell == env, (shell, env)
PY

say "fresh sweep of the default, the export sourced over the job's environment"
env "${JOB_ENV[@]}" bash -c 'set -euo pipefail; source "$1"; shift; exec "$@"' _ "$WORK/export/commtune.env.sh" \
  "${MPIRUN[@]}" -np 4 "${FORWARD[@]}" "$COMMTUNE" "${SWEEP[@]}" --setting default --out "$WORK/after.json" \
  > "$WORK/after.txt" 2> "$WORK/after.err" || { cat "$WORK/after.err"; die "the sweep under the export failed"; }
set +e
"$COMMTUNE" compare "$WORK/sweep.json" "$WORK/after.json" --format json --out "$WORK/compare.json" 2> /dev/null
status=$?
set -e
[ "$status" = 0 ] || die "compare of the default before and after the export: exit $status, wanted 0 (nothing SLOWER)"
python3 - "$WORK/sweep.tune.json" "$WORK/export/commtune-export.json" "$WORK/after.json" "$WORK/compare.json" <<'PY'
import json, sys
rec, exported, after, cmp = (json.load(open(p)) for p in sys.argv[1:5])
env = after["provenance"]["environment"]
missing = {k: (v, env.get(k)) for k, v in exported["env"].items() if env.get(k) != v}
if missing:
    sys.exit(f"FAIL: the exported variables did not reach the job: {missing}")
recommended = {s["bytes"] for s in rec["sizes"] if s["winner"]}
cases = [c for c in cmp["cases"] if c["setting"] == "default"]
for c in cases:
    print(f"  {c['bytes']:>8} B {c['placement']:<13} before {c['baseline']['median']:9.2f} us  "
          f"after {c['current']['median']:9.2f} us  {c['change']*100:+6.1f}%  {c['verdict']}"
          f"{'  (recommended size)' if c['bytes'] in recommended else ''}")
if {c["bytes"] for c in cases} < recommended or not cases:
    sys.exit(f"FAIL: the recommended sizes {sorted(recommended)} are not all compared")
# Every size FASTER in at least one placement: were the export lost, the default would be the
# slowed one again (tens of times slower), SAME everywhere. One placement left AMBIGUOUS by a slow
# phase of the after-run (seen under the sanitizers: 4 MiB in place 16 ms against 6 ms out of
# place) is noise, not a lost export; SLOWER anywhere fails through compare's exit status above.
faster = {c["bytes"] for c in cases if c["verdict"] == "FASTER"}
slow = sorted({c["bytes"] for c in cases} - faster)
if slow:
    sys.exit(f"FAIL: under the exported environment the default is FASTER in no placement at {slow} B: "
             f"{[(c['bytes'], c['placement'], c['verdict']) for c in cases if c['bytes'] in slow]}")
print(f"FASTER at {len(faster)} of {len({c['bytes'] for c in cases})} sizes in at least one placement "
      f"({sum(c['verdict'] == 'FASTER' for c in cases)} of {len(cases)} cases), the {len(recommended)} "
      f"recommended size(s) included")
PY
echo PASS
