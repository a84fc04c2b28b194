#!/usr/bin/env bash
# One rank measures no link: a sweep without a launcher shows times and no bandwidth or efficiency
# (broadcast's would be a local copy's), says so on stderr and in the table with what to type, and
# its results keep no efficiency; the doctor of one rank draws no map and runs no sweep, and says so
# as a finding. Asserted on the table's columns, the files' data and the findings' ids. Its results say
# what commtune did to malloc's thresholds (backend/mpi/heap_thresholds).
source "$(dirname "$0")/common.sh"

say "a one-rank sweep: times, no bandwidth"
"$COMMTUNE" sweep --backend mpi --collectives broadcast,allreduce -b 1K -e 64K -f 8 --max-time 0.02 \
  --out "$WORK/one.json" --no-report > "$WORK/one.txt" 2> "$WORK/one.err" || die "sweep: $(cat "$WORK/one.err")"
grep -q '^commtune: note: one rank' "$WORK/one.err" || die "no one-rank note on stderr: $(cat "$WORK/one.err")"
python3 - "$WORK/one.txt" "$WORK/one.json" <<'PY' || die "a one-rank sweep shows a bandwidth"
import json, sys
table = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
assert doc["provenance"]["layout"]["nranks"] == 1
assert doc["provenance"].get("ceiling"), "the host ceiling is measured, and must not be used"
assert not any("efficiency" in c for c in doc["cases"]), "efficiency at one rank"
assert sum(1 for l in table if l.startswith("# note: one rank")) == 1
assert not any(w in l for l in table for w in ("peak busbw", "eff%", "# efficiency")), "a peak or efficiency"
rows = [l.split() for l in table if l and not l.startswith("#")]
assert len(rows) == 2 * 3, rows  # 2 collectives x 3 sizes (1K, 8K, 64K)
for f in rows:
    assert float(f[5]) > 0, f             # the time is measured
    assert f[6] == "--" and f[7] == "--", f  # algbw, busbw (out of place)
    assert f[11] == "--" and f[12] == "--", f  # in place
PY

say "malloc's thresholds: held by commtune, or left as the environment sets them"
MALLOC_TOP_PAD_=131072 "$COMMTUNE" sweep --backend mpi --collectives allreduce -b 1K -e 1K --max-time 0.02 \
  --out "$WORK/heap.json" --no-report > /dev/null 2> "$WORK/heap.err" || die "sweep: $(cat "$WORK/heap.err")"
python3 - "$WORK/one.json" "$WORK/heap.json" <<'PY' || die "the heap's provenance"
import json, sys
held = json.load(open(sys.argv[1]))["provenance"]["mpi"]["heap"]
# AddressSanitizer's allocator refuses mallopt: the sanitized build says so instead.
assert held.startswith(("glibc malloc thresholds held by commtune: mmap 32 MiB, trim 64 MiB",
                        "glibc malloc thresholds not held: mallopt refused")), held
left = json.load(open(sys.argv[2]))["provenance"]["mpi"]["heap"]
assert left == "glibc malloc thresholds as the environment sets them (MALLOC_TOP_PAD_)", left
PY

say "a one-rank doctor: no map, no sweep, a finding that says so"
set +e
"$COMMTUNE" doctor --quick --json "$WORK/doctor.json" > "$WORK/doctor.txt" 2> "$WORK/doctor.err"
code=$?
set -e
[ "$code" -le 1 ] || die "doctor exit $code: $(cat "$WORK/doctor.err")"
python3 - "$WORK/doctor.json" "$WORK/doctor.txt" <<'PY' || die "the one-rank doctor"
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert doc["backend"] == "mpi"
assert "pairwise" not in doc, "a one-rank map"
assert [f["severity"] for f in doc["findings"] if f["id"] == "one-rank"] == ["info"], doc["findings"]
assert not any(f["id"] == "efficiency" for f in doc["findings"])
assert "# commtune sweep:" not in text, "a one-rank sweep ran"
PY
echo "PASS"
