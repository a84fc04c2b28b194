#!/usr/bin/env bash
# Racing against the exhaustive sweep, side by side, on this machine in one run.
#
# Runs configs/openmpi-algorithms.json (MPI backend, NP ranks) twice: exhaustive (--exhaustive)
# and raced (the default), each with its end-of-sweep tuning (the finalists' interleaved
# re-measure included), and prints both wall times, their ratio, the same for the sweeps alone (up
# to the results file's last write: the tuning's re-measure depends on the finalists each found),
# and per (collective, size) the exhaustive pick, the raced pick, and whether the raced pick is the
# exhaustive one or, timed by the exhaustive sweep (its medians added over the placements), within
# 2% of the exhaustive pick.
# Targets: raced time at most 20% of the exhaustive time, every pick within 2%.
# The load average is printed before and after: other work on the machine skews both sweeps.
# AA=1 runs a second exhaustive sweep after them and judges its picks against the first's by the
# same criterion: how far run-to-run drift alone moves the picks on this machine.
#
# Usage: scripts/bench-racing.sh [BUILD_DIR] [extra sweep flags...]   (env: NP=4, CONFIG=..., AA=1, KEEP=DIR
# keeps both sweeps' results, tables and recommendations in DIR)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
shift || true
commtune=$build/commtune
np=${NP:-4}
config=${CONFIG:-$here/../configs/openmpi-algorithms.json}
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP"
  work=$(cd "$KEEP" && pwd)
  [ -z "$(ls -A "$work")" ] || { echo "KEEP=$KEEP is not empty" >&2; exit 2; }
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

timed_sweep() {  # NAME FLAGS...: "WHOLE SWEEP" wall seconds on stdout: the whole command, and up to
  # the results file's last write (the sweep's end, before the end-of-sweep tuning)
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$here/mpirun.sh" -np "$np" "$commtune" sweep --config "$config" --out "$work/$name.json" "$@" \
    > "$work/$name.txt" 2> "$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 -c "import os; print(f'{$t1 - $t0:.1f} {os.stat(\"$work/$name.json\").st_mtime - $t0:.1f}')"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
exhaustive=$(timed_sweep exhaustive --exhaustive "$@")
raced=$(timed_sweep raced "$@")
again=""
[ "${AA:-0}" = 1 ] && again=$(timed_sweep exhaustive-again --exhaustive "$@")
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work" $exhaustive $raced $again <<'PY'
import json, sys
work, t_exh, s_exh, t_raced, s_raced = sys.argv[1], *map(float, sys.argv[2:6])
results = json.load(open(f"{work}/exhaustive.json"))
raced_results = json.load(open(f"{work}/raced.json"))
def recommendation(name, field):
    rec = json.load(open(f"{work}/{name}.tune.json"))
    return {(d["collective"], d["bytes"]): d[field] for d in rec["sizes"]}
def picks(name):
    return {key: winner or "default" for key, winner in recommendation(name, "winner").items()}
times = {}
for c in results["cases"]:
    if c["status"] == "ok":
        key = (c["setting"], c["collective"], c["bytes"])
        times[key] = times.get(key, 0.0) + c["time_us"]["median"]

def compare(other, label):
    """Per (collective, size): the exhaustive pick against `other`'s, timed by the exhaustive sweep."""
    exh, oth = picks("exhaustive"), picks(other)
    exh_why, oth_why = recommendation("exhaustive", "reason"), recommendation(other, "reason")
    print(f"{'collective':<10} {'size':>8}  {'exhaustive pick':<30} {label + ' pick':<30} {label + '/exh time':>14}  verdict")
    good = 0
    for key in sorted(exh, key=lambda k: (k[0], k[1])):
        e, r = exh[key], oth.get(key, "(none)")
        te, tr = times.get((e,) + key), times.get((r,) + key)
        ratio = tr / te if te and tr else float("nan")
        ok = e == r or ratio <= 1.02
        good += ok
        verdict = "same" if e == r else ("within 2%" if ok else "WORSE")
        print(f"{key[0]:<10} {key[1]:>8}  {e:<30} {r:<30} {ratio:>14.3f}  {verdict}")
        if not ok:  # why each kept what it kept (the race, or the re-measure)
            print(f"{'':<20}{label}: {oth_why.get(key) or 'won'}; exhaustive: {exh_why.get(key) or 'won'}")
    print(f"{label} picks the same or within 2%: {good} of {len(exh)}")

raced_out = sum(1 for c in raced_results["cases"] if "raced_out" in c)
print(f"exhaustive: {t_exh:.1f} s, raced: {t_raced:.1f} s, ratio raced/exhaustive: {t_raced / t_exh:.3f} (target <= 0.20)")
print(f"of which the sweep (to its results file, before the end-of-sweep tuning): exhaustive {s_exh:.1f} s, raced {s_raced:.1f} s, "
      f"ratio {s_raced / s_exh:.3f}; the tuning: exhaustive {t_exh - s_exh:.1f} s, raced {t_raced - s_raced:.1f} s")
print(f"raced sweep: {len(raced_results['cases'])} cases, {raced_out} raced out; exhaustive: {len(results['cases'])} cases")
compare("raced", "raced")
names = ["exhaustive", "raced"]
if len(sys.argv) > 6:  # AA=1: the same criterion between two exhaustive sweeps, what this machine's drift allows
    t_again, s_again = map(float, sys.argv[6:8])
    print(f"\nA second exhaustive sweep (AA=1): {t_again:.1f} s, the sweep {s_again:.1f} s; its picks against the first's, "
          "by the same criterion (what run-to-run drift alone gives):")
    compare("exhaustive-again", "again")
    names.append("exhaustive-again")
for name in names:  # the finalists' re-measure of each (its cost is in the tuning time), from its recommendation
    rec = json.load(open(f"{work}/{name}.tune.json"))
    rounds = {}  # (setting, collective, size) of each finalist: the rounds it ran (one sample a round), fewest over placements
    for c in rec["confirmation_cases"]:
        if c["setting"] != "default":
            key = (c["setting"], c["collective"], c["bytes"])
            ran = c["time_us"]["samples"] if c["status"] in ("ok", "wrong-data") else 0
            rounds[key] = min(rounds.get(key, ran), ran)
    stopped = sum(1 for r in rounds.values() if r < rec["confirm_rounds"])
    confirmed = sum(1 for s in rec["sizes"] if s["confirmed"])
    print(f"{name}: re-measure: {len(rounds)} finalist(s) at {len({k[1:] for k in rounds})} size(s), "
          f"{rec['confirm_rounds']} rounds; {stopped} stopped early; {confirmed} size(s) confirmed")
PY
