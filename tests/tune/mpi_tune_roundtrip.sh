#!/usr/bin/env bash
# The loop users run commtune for, on real Open MPI: sweep the default against forced all-reduce
# algorithms (tuning at the end, with the interleaved re-measure), tune offline too, export every
# format, source the shell file, then sweep again under the exported environment and check that
# it is not slower than the default where something was recommended.
source "$(dirname "$0")/tune_common.sh"
say "sweep with end-of-sweep tuning"
"${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$SRC/configs/tune-allreduce.json" --out "$WORK/sweep.json" > "$WORK/sweep.txt"
[ -f "$WORK/sweep.tune.json" ] || die "no recommendation written next to the results"
sed -n '/commtune tune/,$p' "$WORK/sweep.txt"
"$COMMTUNE" tune "$WORK/sweep.json" --out "$WORK/offline.json" > "$WORK/offline.txt"
grep -q "^# job-wide choices" "$WORK/offline.txt" || die "offline tune printed no summary"

say "export every format"
"$COMMTUNE" export "$WORK/sweep.tune.json" --format all --out-dir "$WORK/export"
for f in commtune.env.sh mca-params.conf docker.env commtune-export.json ompi-coll-rules.conf; do
  [ -s "$WORK/export/$f" ] || die "export did not write $f"
done
bash -n "$WORK/export/commtune.env.sh" || die "shell export has a syntax error"
env -i bash -c "set -euo pipefail; source '$WORK/export/commtune.env.sh'" || die "sourcing the shell export failed"
"$COMMTUNE" export "$WORK/sweep.json" --format shell > /dev/null || die "export from a results file failed"
cat "$WORK/export/commtune.env.sh"

choice=$(json_get "$WORK/sweep.tune.json" "next((c['setting'] for c in d['choices'] if c['scope']=='allreduce'), 'default')")
if [ "$choice" = default ]; then
  say "the defaults are already best here: nothing to re-check"
  echo PASS
  exit 0
fi
say "fresh sweep under the exported environment ($choice)"
env_lines=$(grep '^export ' "$WORK/export/commtune.env.sh" | wc -l)
[ "$env_lines" -ge 2 ] || die "a choice was made but the shell export sets $env_lines variable(s)"
bash -c "set -euo pipefail; source '$WORK/export/commtune.env.sh'; exec ${MPIRUN[*]} -x OMPI_MCA_coll_tuned_use_dynamic_rules \
  -x OMPI_MCA_coll_tuned_allreduce_algorithm -np 4 '$COMMTUNE' sweep --config '$SRC/configs/tune-allreduce.json' \
  --setting default --out '$WORK/after.json'" > "$WORK/after.txt"
set +e
"$COMMTUNE" compare "$WORK/sweep.json" "$WORK/after.json" --format json --out "$WORK/compare.json"
set -e
python3 - "$WORK/sweep.tune.json" "$WORK/compare.json" <<'PY'
import json, sys
rec, cmp = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
choice = next(c for c in rec["choices"] if c["scope"] == "allreduce")
sizes = {s["bytes"] for s in rec["sizes"] if s["winner"] == choice["setting"]}
checked = 0
for c in cmp["cases"]:
    if c["setting"] == "default" and c["bytes"] in sizes:
        print(f"  {c['bytes']:>8} B {c['placement']:<13} before {c['baseline']['median']:9.2f} us  "
              f"after {c['current']['median']:9.2f} us  {c['change']*100:+6.1f}%  {c['verdict']}")
        checked += 1
        if c["verdict"] == "SLOWER":
            sys.exit(f"FAIL: the exported environment is slower than the default at {c['bytes']} B")
if checked == 0:
    sys.exit("FAIL: no recommended size to check")
print(f"not slower at any of the {checked} recommended cases")
PY
echo PASS
