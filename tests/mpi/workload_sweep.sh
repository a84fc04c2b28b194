#!/usr/bin/env bash
# sweep --workload and tune --workload (issue 28): the sweep measures exactly the workload's
# (collective, size, group) cases, in its main element type, on its groups, and records the
# workload; --collectives narrows it; the tuning at the end (and `tune --workload`) judges the
# job-wide choices on the step, each size by its share under the default. Size and group flags
# beside --workload are refused (exit 2, nothing written).
source "$(dirname "$0")/common.sh"
python3 - "$WORK/w.json" <<'PY'
import json, sys
json.dump({"kind": "commtune-workload", "version": 1, "world_ranks": 4, "collectives": [
    {"collective": "allreduce", "bytes": 262144, "datatype": "float", "op": "sum", "group": "world", "group_ranks": 4, "count": 3},
    {"collective": "allgather", "bytes": 65536, "datatype": "float", "group": "DIV 2", "group_ranks": 2, "count": 2},
    {"collective": "allreduce", "bytes": 1048576, "datatype": "float", "op": "sum", "group": "DIV 2", "group_ranks": 2, "count": 1},
    {"collective": "allreduce", "bytes": 262144, "datatype": "float", "op": "sum", "group": "world", "group_ranks": 4, "count": 1}],
  "source": {"kind": "preset"}}, open(sys.argv[1], "w"))
PY
cat > "$WORK/c.json" <<'JSON'
{"name": "two", "backend": "mpi",
 "settings": [{"name": "allreduce-ring", "collectives": ["allreduce"], "knobs": {"coll_tuned_allreduce_algorithm": "ring"}}]}
JSON
sweep() {
  "${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep --config "$WORK/c.json" --min-time 0.002 --max-time 0.01 --no-report "$@"
}

say "the workload's cases, exactly, on their groups; the tuning judged on the step"
sweep --workload "$WORK/w.json" --placement out --out "$WORK/r.json" > "$WORK/r.txt" 2> "$WORK/r.err" || die "sweep --workload: $(cat "$WORK/r.err")"
"$CHECK" "$WORK/r.json" > /dev/null || die "results_check refuses the workload sweep's results"
python3 - "$WORK/r.json" "$WORK/r.tune.json" <<'PY' || die "the workload sweep's cases"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {(c["setting"], c["collective"], c["bytes"], c.get("group", "world")) for c in doc["cases"]}
want = {("default", "allreduce", 262144, "world"), ("default", "allgather", 65536, "DIV 2"),
        ("default", "allreduce", 1048576, "DIV 2"), ("allreduce-ring", "allreduce", 262144, "world"),
        ("allreduce-ring", "allreduce", 1048576, "DIV 2")}
assert got == want, sorted(got ^ want)
assert all(c["status"] == "ok" and c["wrong"] == 0 for c in doc["cases"])
w = doc["sweep"]["workload"]
assert w["file"].endswith("w.json")
assert {(s["collective"], s["bytes"], s["group"], s["count"]) for s in w["sizes"]} == {
    ("allreduce", 262144, "world", 4), ("allgather", 65536, "DIV 2", 2), ("allreduce", 1048576, "DIV 2", 1)}, w
rec = json.load(open(sys.argv[2]))
assert rec["objective"].startswith("the step of "), rec["objective"]
PY

say "--collectives narrows the workload"
sweep --workload "$WORK/w.json" --collectives allgather --placement out --out "$WORK/n.json" > /dev/null 2>&1 || die "sweep --workload --collectives"
python3 - "$WORK/n.json" <<'PY' || die "narrowed"
import json, sys
doc = json.load(open(sys.argv[1]))
assert {(c["collective"], c["bytes"]) for c in doc["cases"]} == {("allgather", 65536)}, doc["cases"]
PY

say "tune --workload on a grid sweep: its sizes weighed at the nearest measured ones"
sweep --collectives allreduce -b 128K -e 2M -f 8 --placement out --out "$WORK/g.json" > /dev/null 2>&1 || die "grid sweep"
"$COMMTUNE" tune "$WORK/g.json" --workload "$WORK/w.json" --out "$WORK/job.tune.json" > "$WORK/t.txt" 2>&1 || die "tune --workload: $(cat "$WORK/t.txt")"
python3 - "$WORK/job.tune.json" <<'PY' || die "tune --workload"
import json, sys
rec = json.load(open(sys.argv[1]))
assert rec["objective"].startswith("the step of "), rec["objective"]
notes = " ".join(rec.get("notes", []))
assert "nearest measured size" in notes and "allgather" in notes, notes  # the grid has no allgather, no DIV 2
PY

say "bad input: the workload sets sizes and groups"
expect_exit 2 sweep --workload "$WORK/w.json" -b 1K --out "$WORK/bad.json"; error_names --workload -b
expect_exit 2 sweep --workload "$WORK/w.json" --groups world --out "$WORK/bad.json"; error_names --workload --groups
expect_exit 2 sweep --workload "$WORK/w.json" --collectives broadcast --out "$WORK/bad.json"; error_names --collectives
expect_exit 2 "$COMMTUNE" tune "$WORK/g.json" --workload "$WORK/w.json" --weight allreduce=2; error_names --workload --weight
[ ! -e "$WORK/bad.json" ] || die "a refused sweep wrote results"
say "ok"
