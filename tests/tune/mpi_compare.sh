#!/usr/bin/env bash
# compare on real runs: the default against a repeat of itself exits 0; the default against a
# forced slow all-reduce algorithm (basic_linear: reduce to one rank, then broadcast) reports
# SLOWER at the large sizes and exits 1; bad or incompatible input exits 2. Separate sweeps on a
# shared, oversubscribed machine can differ several-fold when other jobs load it, so the timing
# half gets up to three attempts (each a fresh baseline, repeat and slow run). These are single-run
# files: the repeat is judged with the default between-run noise (it must not alarm), the slow run
# with --run-noise 0 (the within-run intervals), so that the slowdown is found on a loaded VM too.
source "$(dirname "$0")/tune_common.sh"
sweep() { rm -f "$1"; "${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep -b 1M -e 4M -f 4 --collectives allreduce --out "$1" > /dev/null; }
attempt() {
say "baseline, repeat, and forced basic_linear (attempt $1)"
sweep "$WORK/base.json"
sweep "$WORK/repeat.json"
OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=1 sweep "$WORK/slow.json"
set +e
"$COMMTUNE" compare "$WORK/base.json" "$WORK/repeat.json" --threshold 0.25 > "$WORK/same.md"; same=$?
"$COMMTUNE" compare "$WORK/base.json" "$WORK/slow.json" --threshold 0.25 --run-noise 0 > "$WORK/slow.md"; slow=$?
set -e
echo "   repeat: exit $same, slow: exit $slow"
[ "$same" = 0 ] && [ "$slow" = 1 ]
}
attempt 1 || attempt 2 || attempt 3 || true

set +e
"$COMMTUNE" compare "$WORK/base.json" "$WORK/repeat.json" --threshold 0.25 > "$WORK/same.md"; same=$?
"$COMMTUNE" compare "$WORK/base.json" "$WORK/slow.json" --threshold 0.25 --run-noise 0 > "$WORK/slow.md"; slow=$?
"$COMMTUNE" compare "$WORK/base.json" "$WORK/slow.json" --run-noise 0 --format json --out "$WORK/slow-report.json"; slow_json=$?
"$COMMTUNE" compare "$WORK/base.json" "$SRC/tests/fixtures/nccl-results-h100x16.json" 2> "$WORK/incompatible.txt"; incompatible=$?
echo '{"not": "results"}' > "$WORK/bad.json"
"$COMMTUNE" compare "$WORK/base.json" "$WORK/bad.json" 2> "$WORK/bad.txt"; bad=$?
set -e
cat "$WORK/same.md" "$WORK/slow.md"
[ "$same" = 0 ] || die "a run against its repeat exited $same"
[ "$slow" = 1 ] || die "default vs forced basic_linear exited $slow, wanted 1"
[ "$slow_json" = 1 ] || die "json compare exited $slow_json, wanted 1"
grep -q SLOWER "$WORK/slow.md" || die "no SLOWER verdict in the report"
[ "$(json_get "$WORK/slow-report.json" "d['counts']['SLOWER'] > 0 and d['regression']")" = True ] || die "json report has no regression"
head -n5 "$WORK/slow.md" | grep -q "What changed" || die "provenance differences do not come first"
grep -q "OMPI_MCA_coll_tuned_allreduce_algorithm" "$WORK/slow.md" || die "the forced variable is not shown as a provenance difference"
[ "$incompatible" = 2 ] || die "mpi vs nccl results exited $incompatible, wanted 2"
grep -q "cannot compare" "$WORK/incompatible.txt" || die "no clear message for incompatible input"
[ "$bad" = 2 ] || die "a damaged results file exited $bad, wanted 2"
echo PASS
