#!/usr/bin/env bash
# The HTML report in a real browser (CTest label "browser"): headless Chromium opens the report
# made from the fixtures (one input of each kind) and the one a real host sweep writes at its end
# (mpirun -np 2, Open MPI, a small plan), with the network cut off; tests/browser/check_report.py
# asserts no console error, no request other than the file, the plots and series expected, and
# takes a screenshot of each (kept in SHOT_DIR for people to look at). Exit 77 without chromium.
# Usage: browser_test.sh COMMTUNE SOURCE_DIR SHOT_DIR   (COMMTUNE_MPIRUN: the launcher)
set -euo pipefail
commtune=$1 src=$2 shots=$3
check="$src/tests/browser/check_report.py"
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  echo "skipped: no chromium installed (scripts/setup.sh installs Debian's chromium package)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$shots"

# 1. The fixtures: NCCL results with the tuner's recommendation (its choices emphasised), results
#    with a ceiling, a compare report and a doctor report.
"$commtune" report "$src/tests/fixtures/nccl-results-h100x16.json" "$src/tests/badinput/base/recommendation.json" \
  "$src/tests/golden/results-ceiling.json" "$src/tests/golden/tune/compare.json" "$src/tests/fixtures/doctor-4nodes.json" \
  "$src/tests/golden/replay/results.json" --out "$work/fixtures.html"
python3 "$check" "$work/fixtures.html" --screenshot "$shots/fixtures.png" \
  --expect 'svg.line-plot=6' --expect 'svg.bar-chart=4' --expect 'svg.heatmap=1' --expect 'figure.plot-figure=12' \
  --expect 'svg.stacked-bars=1' --expect 'svg.stacked-bars rect.segment=4' \
  --expect 'svg.line-plot[data-series="6"]=2' --expect 'figure[id$="allreduce-busbw"] g.series=7' \
  --expect 'g.series.emphasised=10' --expect 'g.reference=1' --expect 'svg.heatmap rect.cell=12' \
  --expect 'tr.finding=3' --expect 'table.provenance-differences tr=2' --min 'rect.bar[data-category="SAME"]=1'

# 2. A real host sweep: two settings (the default and a forced ring all-reduce), so it tunes too;
#    the sweep writes sweep.html itself. Fixed iterations and four sizes keep it to a few seconds.
read -r -a mpirun <<<"${COMMTUNE_MPIRUN:-mpirun --oversubscribe}"
"${mpirun[@]}" -np 2 "$commtune" sweep --backend mpi --config "$src/configs/quick.json" -e 8K -f 8 \
  -n 5 -w 1 --out "$work/sweep.json" >"$work/sweep.txt" 2>"$work/sweep.err"
[ -s "$work/sweep.html" ] || { cat "$work/sweep.err"; echo "FAIL: the sweep wrote no report"; exit 1; }
python3 "$check" "$work/sweep.html" --screenshot "$shots/host-sweep.png" \
  --expect 'svg.line-plot=6' --expect 'figure[id$="allreduce-busbw"] g.series=2' \
  --expect 'figure[id$="allgather-busbw"] g.series=1' --min 'svg.bar-chart=1' --expect 'section.provenance=1'
echo "browser: both reports checked; screenshots in $shots"
