#!/usr/bin/env bash
# `commtune doctor` under mpirun -np 4: on a recorded healthy tree it exits 0, on the broken one 1
# with the broken things ranked in its --json; the pairwise map and the sweep's efficiency are in
# the findings file, and the terminal shows that file's map and findings; bad input exits 2 and
# never touches an existing file.
source "$(dirname "$0")/common.sh"
SYSTEMS="$COMMTUNE_SOURCE_DIR/tests/fixtures/systems"
# Yield: 4 ranks on this machine's cores must not be an oversubscription finding of their own.
# The live environment's NCCL_* must not leak into the verdict either.
DOCTOR=(env -u NCCL_P2P_DISABLE -u NCCL_SHM_DISABLE -u NCCL_IB_DISABLE -u NCCL_NET
        "${MPIRUN[@]}" -np 4 -x OMPI_MCA_mpi_yield_when_idle=1 "$COMMTUNE" doctor --quick)
# terminal_agrees OUT JSON: what the terminal shows is the findings file's: the pairwise bandwidth
# map's rows (one per member, the figures to 3 decimals) and the findings as `[severity] id` lines,
# in the file's order.
terminal_agrees() {
  python3 - "$1" "$2" <<'PY' || die "the terminal ($1) against the findings file ($2)"
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
p = d["pairwise"]
for member, row in zip(p["members"], p["gbps"]):
    want = ["-" if x is None else f"{x:.3f}" for x in row]
    printed = [l.split()[len(member.split()):] for l in lines if l.split()[:len(member.split())] == member.split()]
    assert want in printed, (member, want, printed)
shown = [m.groups() for m in (re.match(r"^  \[(\w+)\] (\S+)", l) for l in lines) if m]
assert shown == [(f["severity"], f["id"]) for f in d["findings"]], (shown, d["findings"])
PY
}

say "healthy PCIe server: exit 0"
expect_exit 0 "${DOCTOR[@]}" --system-root "$SYSTEMS/pcie-4gpu" --json "$WORK/healthy.json"
python3 - "$WORK/healthy.json" <<'PY' || die "healthy findings file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["healthy"] is True, d
assert all(f["severity"] == "info" for f in d["findings"]), d["findings"]
assert len(d["pairwise"]["members"]) == 4 and d["pairwise"]["member"] == "rank", d["pairwise"]
gbps = d["pairwise"]["gbps"]
assert all((x is None) == (i == j) and (x is None or x > 0) for i, row in enumerate(gbps) for j, x in enumerate(row)), gbps
assert d["ceiling"]["path"] == "host memory copy" and d["ceiling"]["gbps"] > 0, d["ceiling"]
# The sweep's efficiency against that ceiling is a finding of its own, per collective.
assert [f["subject"] for f in d["findings"] if f["id"] == "efficiency"] == ["allreduce"], d["findings"]
PY
terminal_agrees "$WORK/out.txt" "$WORK/healthy.json"
grep -q "^# efficiency: default allreduce " "$WORK/out.txt" || die "no efficiency line for the default's all-reduce"

say "broken server: exit 1, the broken things ranked"
expect_exit 1 "${DOCTOR[@]}" --system-root "$SYSTEMS/broken-8gpu" --json "$WORK/broken.json"
python3 - "$WORK/broken.json" <<'PY' || die "broken findings file"
import json, sys
d = json.load(open(sys.argv[1]))
ids = {f["id"] for f in d["findings"]}
want = {"pcie-link-slow", "pcie-link-narrow", "pcie-acs-enabled", "iommu-translation", "gpudirect-rdma-missing",
        "nic-port-down", "nic-port-slow", "numa-no-local-nic", "shm-small"}
assert want <= ids, want - ids
order = {"critical": 2, "warning": 1, "info": 0}
ranks = [order[f["severity"]] for f in d["findings"]]
assert ranks == sorted(ranks, reverse=True), ranks
assert d["healthy"] is False
PY
terminal_agrees "$WORK/out.txt" "$WORK/broken.json"

say "bad input: exit 2, nothing overwritten"
echo precious > "$WORK/kept.json"
expect_exit 2 "${DOCTOR[@]}" --json "$WORK/kept.json"
[ "$(cat "$WORK/kept.json")" = precious ] || die "an existing --json file was overwritten"
expect_exit 2 "$COMMTUNE" doctor --system-root "$WORK/none"
error_names --system-root "$WORK/none"
say "ok"
