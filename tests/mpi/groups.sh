#!/usr/bin/env bash
# Communicator groups (--groups): every spec is one more dimension of the plan; every group runs each
# case at once, on its own communicator (the data check counts on each group's ranks), and the case
# keeps every group's members and figures, its own being the slowest group's. nccl-tests' habit,
# NCCL_TESTS_SPLIT, is used when --groups is not given. Bad specs exit 2 and write nothing. Asserted on
# the results' data and exit codes.
source "$(dirname "$0")/common.sh"
sweep() {
  "${MPIRUN[@]}" -np 4 "$COMMTUNE" sweep -b 1K -e 16K -f 4 --min-time 0.002 --max-time 0.01 --no-report "$@"
}

say "world, MOD 2 and DIV 2 on 4 ranks, all measured with correct data"
sweep --collectives allreduce,allgather,broadcast --groups "world,MOD 2,/ 0b10" --out "$WORK/g.json" > "$WORK/g.txt" 2> "$WORK/g.err" || die "sweep: $(cat "$WORK/g.err")"
"$CHECK" "$WORK/g.json" > /dev/null || die "results_check refuses the grouped results"
python3 - "$WORK/g.json" <<'PY' || die "the groups' figures"
import json, sys
doc = json.load(open(sys.argv[1]))
cases = doc["cases"]
by = {}
for c in cases:
    by.setdefault(c.get("group", "world"), []).append(c)
assert set(by) == {"world", "MOD 2", "DIV 2"}, set(by)
assert len(by["world"]) == len(by["MOD 2"]) == len(by["DIV 2"])
for c in cases:
    assert c["status"] == "ok" and c["wrong"] == 0, c
for spec, members in [("MOD 2", [[0, 2], [1, 3]]), ("DIV 2", [[0, 1], [2, 3]])]:
    for c in by[spec]:
        g = c["groups"]
        assert g["shape"] == "2x2x1", g["shape"]
        assert [m["ranks"] for m in g["members"]] == members
        assert all(m["nodes"] == [0] for m in g["members"])
        slowest = g["members"][g["slowest"]]
        assert slowest["time_us"]["median"] == max(m["time_us"]["median"] for m in g["members"])
        assert c["time_us"]["median"] == slowest["time_us"]["median"]
        assert c["nranks"] == 2
        assert abs(g["busbw_sum_gbps"] - sum(m["busbw_gbps"] for m in g["members"])) < 1e-9 * max(1, g["busbw_sum_gbps"])
for c in by["world"]:
    assert "groups" not in c and c["nranks"] == 4
PY

say "tune decides per group spec, each decision with its communicators' shape; export writes it"
"$COMMTUNE" tune "$WORK/g.json" --out "$WORK/g.tune.json" > /dev/null 2> "$WORK/tune.err" || die "tune: $(cat "$WORK/tune.err")"
python3 - "$WORK/g.tune.json" <<'PY' || die "tune over grouped results"
import json, sys
rec = json.load(open(sys.argv[1]))
assert len(rec["sizes"]) == 3 * 3 * 3, len(rec["sizes"])  # specs x collectives x sizes
shapes = {(d.get("group") or {}).get("spec", "world"): d.get("group") for d in rec["sizes"]}
assert shapes["world"] is None, shapes
assert shapes["MOD 2"] == {"spec": "MOD 2", "nranks": 2, "nnodes": 1}, shapes
assert shapes["DIV 2"] == {"spec": "DIV 2", "nranks": 2, "nnodes": 1}, shapes
PY
"$COMMTUNE" export "$WORK/g.tune.json" --format all --out-dir "$WORK/export" > /dev/null 2> "$WORK/export.err" \
  || die "export: $(cat "$WORK/export.err")"

say "NCCL_TESTS_SPLIT is used without --groups, and left alone with it"
NCCL_TESTS_SPLIT="MOD 2" sweep --collectives allreduce --out "$WORK/env.json" > /dev/null 2>&1 || die "sweep under NCCL_TESTS_SPLIT"
NCCL_TESTS_SPLIT="MOD 2" sweep --collectives allreduce --groups world --out "$WORK/flag.json" > /dev/null 2>&1 || die "sweep with --groups"
python3 - "$WORK/env.json" "$WORK/flag.json" <<'PY' || die "NCCL_TESTS_SPLIT"
import json, sys
env, flag = (json.load(open(p)) for p in sys.argv[1:])
assert {c.get("group") for c in env["cases"]} == {"MOD 2"}
assert {c.get("group", "world") for c in flag["cases"]} == {"world"}
PY

say "bad specs: exit 2, one line naming the spec, nothing written"
for spec in "MOD 0" "XOR 2" "MOD 4" "world,world"; do
  expect_exit 2 sweep --groups "$spec" --out "$WORK/bad.json"
  error_names "--groups"
  [ ! -e "$WORK/bad.json" ] || die "a refused sweep wrote its results ($spec)"
done
NCCL_TESTS_SPLIT="MOD x" expect_exit 2 sweep --out "$WORK/bad.json"
error_names "NCCL_TESTS_SPLIT"
say "ok"
