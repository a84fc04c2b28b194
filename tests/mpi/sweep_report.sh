#!/usr/bin/env bash
# The HTML report a sweep writes at its end: beside the results file, named on stderr, never over
# an existing file (RESULTS.1.html then), and none with --no-report.
source "$(dirname "$0")/common.sh"
lines_naming() { awk -v p="$1" '{ for (i = 1; i <= NF; i++) if ($i == p) { n++; break } } END { print n + 0 }' "$WORK/err.txt"; }
sweep=("${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --backend mpi -b 8 -e 1K -f 8 -n 3 --collectives allreduce,broadcast)

say "a sweep writes RESULTS.html"
expect_exit 0 "${sweep[@]}" --out "$WORK/a.json"
html=$WORK/a.html
[ -s "$html" ] || die "no report at $html"
# stderr names the report once: rank 0 alone says where it went.
[ "$(lines_naming "$html")" -eq 1 ] || die "the report's path not named once: $(cat "$WORK/err.txt")"
grep -q '^<!DOCTYPE html>' "$html" || die "not an HTML page"
[ "$(grep -o 'class="plot line-plot"' "$html" | wc -l)" -eq 4 ] || die "wanted 4 line plots (busbw and latency of 2 collectives)"
grep -q "data-name=\"default\"" "$html" || die "no default series"
! grep -Eq '<script src|<link |https?://[^w]' "$html" || die "the page refers to something outside it"

say "an existing RESULTS.html is kept; the new report goes to RESULTS.1.html"
echo keep > "$WORK/b.html"
expect_exit 0 "${sweep[@]}" --out "$WORK/b.json"
[ "$(cat "$WORK/b.html")" = keep ] || die "b.html was overwritten"
[ -s "$WORK/b.1.html" ] || die "no report at b.1.html"
[ "$(lines_naming "$WORK/b.1.html")" -eq 1 ] || die "b.1.html not named: $(cat "$WORK/err.txt")"

say "--no-report writes none"
expect_exit 0 "${sweep[@]}" --out "$WORK/c.json" --no-report
[ ! -e "$WORK/c.html" ] || die "--no-report wrote c.html"
! grep -q '\.html' "$WORK/err.txt" || die "--no-report named a report: $(cat "$WORK/err.txt")"
[ -z "$(find "$WORK" -name 'c*.html')" ] || die "--no-report wrote $(find "$WORK" -name 'c*.html')"

say "commtune report reads what the sweep wrote"
expect_exit 0 "$COMMTUNE" report "$WORK/a.json" --out "$WORK/again.html"
expect_exit 2 "$COMMTUNE" report "$WORK/a.json" --out "$WORK/again.html"
error_names "$WORK/again.html"
echo "ok"
