#!/usr/bin/env bash
# The HTML report a sweep writes at its end: beside the results file, named on stderr, never over
# an existing file (RESULTS.1.html then), and none with --no-report.
source "$(dirname "$0")/common.sh"
sweep=("${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --backend mpi -b 8 -e 1K -f 8 -n 3 --collectives allreduce,broadcast)

say "a sweep writes RESULTS.html"
expect_exit 0 "${sweep[@]}" --out "$WORK/a.json"
grep -q "commtune: report written to $WORK/a.html" "$WORK/err.txt" || die "no 'report written' line: $(cat "$WORK/err.txt")"
[ "$(grep -c 'report written' "$WORK/err.txt")" -eq 1 ] || die "the line came from more than rank 0"
html=$WORK/a.html
grep -q '^<!DOCTYPE html>' "$html" || die "not an HTML page"
[ "$(grep -o 'class="plot line-plot"' "$html" | wc -l)" -eq 4 ] || die "wanted 4 line plots (busbw and latency of 2 collectives)"
grep -q "data-name=\"default\"" "$html" || die "no default series"
! grep -Eq '<script src|<link |https?://[^w]' "$html" || die "the page refers to something outside it"

say "an existing RESULTS.html is kept; the new report goes to RESULTS.1.html"
echo keep > "$WORK/b.html"
expect_exit 0 "${sweep[@]}" --out "$WORK/b.json"
[ "$(cat "$WORK/b.html")" = keep ] || die "b.html was overwritten"
grep -q "report written to $WORK/b.1.html" "$WORK/err.txt" || die "no report at b.1.html: $(cat "$WORK/err.txt")"

say "--no-report writes none"
expect_exit 0 "${sweep[@]}" --out "$WORK/c.json" --no-report
[ ! -e "$WORK/c.html" ] || die "--no-report wrote c.html"
! grep -q "report written" "$WORK/err.txt" || die "--no-report said it wrote a report"

say "commtune report reads what the sweep wrote"
expect_exit 0 "$COMMTUNE" report "$WORK/a.json" --out "$WORK/again.html"
expect_exit 2 "$COMMTUNE" report "$WORK/a.json" --out "$WORK/again.html"
grep -q "again.html" "$WORK/err.txt" || die "the refusal does not name the file"
echo "ok"
