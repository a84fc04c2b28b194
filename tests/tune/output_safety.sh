#!/usr/bin/env bash
# What tune, export and compare write can be sourced by training jobs: no overwrite unless
# --force, never through a symbolic link, never over an input, write errors reported, and a
# tampered recommendation (BASH_ENV, LD_PRELOAD, shell syntax) refused with nothing written.
source "$(dirname "$0")/tune_common.sh"
results="$WORK/results.json"
cp "$SRC/tests/fixtures/mpi-results-algorithms.json" "$results"
expect_refused() {  # expect_refused WHAT COMMAND...: exit 2 and one line naming the problem
  local what=$1; shift
  set +e; "$@" > "$WORK/out.txt" 2> "$WORK/err.txt"; local code=$?; set -e
  [ "$code" = 2 ] || die "$what: exit $code, wanted 2 ($(cat "$WORK/err.txt"))"
  [ "$(wc -l < "$WORK/err.txt")" = 1 ] || die "$what: wanted one line on stderr, got: $(cat "$WORK/err.txt")"
  echo "   refused: $what: $(cat "$WORK/err.txt")"
}
sum() { sha256sum "$1" | cut -d' ' -f1; }
before=$(sum "$results")

say "tune --out"
"$COMMTUNE" tune "$results" --out "$WORK/rec.json" > /dev/null
expect_refused "tune over its own input" "$COMMTUNE" tune "$results" --out "$results" --force
[ "$(sum "$results")" = "$before" ] || die "tune wrote over its input"
expect_refused "tune over an existing file" "$COMMTUNE" tune "$results" --out "$WORK/rec.json"
"$COMMTUNE" tune "$results" --out "$WORK/rec.json" --force > /dev/null || die "--force did not replace the file"
echo keep > "$WORK/target.txt"; ln -s "$WORK/target.txt" "$WORK/link.json"
expect_refused "tune through a symbolic link" "$COMMTUNE" tune "$results" --out "$WORK/link.json" --force
[ "$(cat "$WORK/target.txt")" = keep ] || die "tune wrote through a symbolic link"
expect_refused "tune into a missing folder" "$COMMTUNE" tune "$results" --out "$WORK/no/such/rec.json"
ls -A "$WORK" | grep -q '^\.rec' && die "a temporary file was left behind"

say "export"
expect_refused "export to /dev/full" "$COMMTUNE" export "$WORK/rec.json" --out /dev/full --force
expect_refused "export to a full standard output" bash -c "'$COMMTUNE' export '$WORK/rec.json' > /dev/full"
mkdir "$WORK/all"
"$COMMTUNE" export "$WORK/rec.json" --format all --out-dir "$WORK/all" 2> /dev/null
files=$(ls "$WORK/all" | wc -l)
[ "$files" -ge 3 ] || die "export --format all wrote $files files"
expect_refused "export --format all over existing files" "$COMMTUNE" export "$WORK/rec.json" --format all --out-dir "$WORK/all"
expect_refused "export over its own input" "$COMMTUNE" export "$WORK/rec.json" --format json --out "$WORK/rec.json" --force

say "tampered recommendations"
tamper() {  # tamper NAME VALUE OUT: the recommendation with one more knob in its first setting
  python3 - "$WORK/rec.json" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["settings"][0]["knobs"][sys.argv[2]] = sys.argv[3]
json.dump(d, open(sys.argv[4], "w"))
PY
}
for knob in BASH_ENV LD_PRELOAD PATH PROMPT_COMMAND; do
  tamper "$knob" /tmp/x "$WORK/tampered.json"
  mkdir -p "$WORK/t-$knob"
  expect_refused "a recommendation exporting $knob" "$COMMTUNE" export "$WORK/tampered.json" --format all --out-dir "$WORK/t-$knob"
  [ -z "$(ls -A "$WORK/t-$knob")" ] || die "files were written for a recommendation with $knob"
  grep -q "$knob" "$WORK/err.txt" || die "the message does not name $knob"
done
tamper coll_tuned_allreduce_algorithm '4$(touch /tmp/commtune-pwned)' "$WORK/tampered.json"
for format in shell conf docker json ompi-rules; do
  expect_refused "a value with shell syntax ($format)" "$COMMTUNE" export "$WORK/tampered.json" --format "$format"
  [ ! -s "$WORK/out.txt" ] || die "$format: something was written for a value with shell syntax"
done

say "compare --out"
cp "$results" "$WORK/current.json"
expect_refused "compare over its baseline" "$COMMTUNE" compare "$results" "$WORK/current.json" --out "$results" --force
[ "$(sum "$results")" = "$before" ] || die "compare wrote over its input"
echo PASS
