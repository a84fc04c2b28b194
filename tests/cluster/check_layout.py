#!/usr/bin/env python3
"""Checks a results file of a sweep on the emulated cluster: the rank layout (ranks, nodes, host
names, local ranks, devices) and the launcher recorded in the provenance. Exit 0 when all hold;
otherwise one line per failed expectation and exit 1."""
import argparse
import json
import re
import sys

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def check_layout(layout, args):
    ranks = layout.get("ranks", [])
    expect(layout.get("nranks") == args.nranks, f"layout.nranks {layout.get('nranks')}, wanted {args.nranks}")
    expect(layout.get("nhosts") == args.nodes, f"layout.nhosts {layout.get('nhosts')}, wanted {args.nodes}")
    expect(layout.get("local_sizes") == [args.ranks_per_node] * args.nodes,
           f"layout.local_sizes {layout.get('local_sizes')}, wanted {args.ranks_per_node} on each of {args.nodes}")
    expect([r.get("rank") for r in ranks] == list(range(args.nranks)), "layout.ranks is not ranks 0..N-1 in order")
    expect(sorted(layout.get("hosts", {})) == [f"n{i}" for i in range(1, args.nodes + 1)],
           f"layout.hosts {sorted(layout.get('hosts', {}))}, wanted n1..n{args.nodes}")
    host_of_node = {}
    by_host = {}
    for r in ranks:
        host_of_node.setdefault(r.get("node"), set()).add(r.get("host"))
        by_host.setdefault(r.get("host"), []).append(r)
    expect(all(len(h) == 1 for h in host_of_node.values()) and len(host_of_node) == args.nodes,
           f"nodes and host names do not match one to one: {host_of_node}")
    for host, on_host in by_host.items():
        expect(sorted(r.get("local_rank") for r in on_host) == list(range(args.ranks_per_node)),
               f"{host}: local ranks {[r.get('local_rank') for r in on_host]}, wanted 0..{args.ranks_per_node - 1}")
        if args.launcher_local_ranks:
            expect(all(r.get("launcher_local_rank") == r.get("local_rank") for r in on_host),
                   f"{host}: the launcher's local ranks differ from MPI's locality")
        check_devices(host, on_host, args.devices)


def check_devices(host, on_host, mode):
    for r in on_host:
        device, local = r.get("device"), r.get("local_rank")
        if mode == "cpu":
            expect(device == "cpu", f"{host} rank {r.get('rank')}: device {device}, wanted cpu")
        elif mode == "local-rank":  # every GPU of the node visible: GPU = local rank
            expect(isinstance(device, dict) and device.get("index") == local and
                   device.get("pci_bus_id") == f"0000:0{local}:00.0" and device.get("cuda_visible_devices") is None,
                   f"{host} rank {r.get('rank')} (local rank {local}): device {device}, wanted GPU {local} of all")
        elif mode == "per-task":  # one visible GPU per task (srun --gpus-per-task=1): its device 0
            expect(isinstance(device, dict) and device.get("index") == 0 and
                   device.get("cuda_visible_devices") == str(local) and device.get("pci_bus_id") == f"0000:0{local}:00.0",
                   f"{host} rank {r.get('rank')} (local rank {local}): device {device}, wanted its only visible GPU, {local}")
    if mode in ("local-rank", "per-task"):
        buses = [r.get("device", {}).get("pci_bus_id") for r in on_host if isinstance(r.get("device"), dict)]
        expect(len(set(buses)) == len(on_host), f"{host}: ranks share a GPU: {buses}")


def check_launcher(launcher, args):
    expect(launcher.get("name") == args.launcher, f"launcher.name {launcher.get('name')}, wanted {args.launcher}")
    slurm = launcher.get("slurm")
    if not args.slurm:
        expect(slurm is None, f"a Slurm job recorded outside Slurm: {slurm}")
        return
    if not isinstance(slurm, dict):
        expect(False, "no Slurm job recorded")
        return
    expect(re.fullmatch(r"[0-9]+", str(slurm.get("job_id", ""))) is not None, f"slurm.job_id {slurm.get('job_id')}")
    expect(slurm.get("nodelist") == f"n[1-{args.nodes}]", f"slurm.nodelist {slurm.get('nodelist')}")
    expect(slurm.get("nnodes") == args.nodes, f"slurm.nnodes {slurm.get('nnodes')}")
    if args.launcher == "srun":
        expect(slurm.get("tasks_per_node") == f"{args.ranks_per_node}(x{args.nodes})",
               f"slurm.tasks_per_node {slurm.get('tasks_per_node')}, wanted {args.ranks_per_node}(x{args.nodes})")
        expect(slurm.get("ntasks") == args.nranks, f"slurm.ntasks {slurm.get('ntasks')}")
        expect(re.fullmatch(r"[0-9]+", str(slurm.get("step_id", ""))) is not None, f"slurm.step_id {slurm.get('step_id')}")
    else:  # mpirun inside an allocation: the step is mpirun's daemons', not recorded
        expect("tasks_per_node" not in slurm, f"the daemons' step recorded as the job's: {slurm}")


def check_cases(doc, args):
    cases = doc.get("cases", [])
    expect(len(cases) >= args.min_cases, f"{len(cases)} cases, wanted at least {args.min_cases}")
    for c in cases:
        expect(c.get("nranks") == args.nranks, f"a case with nranks {c.get('nranks')}")
        expect(c.get("status") == "ok" and c.get("wrong") == 0, f"case not measured right: {c.get('status')} {c.get('reason', '')}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("results")
    p.add_argument("--nranks", type=int, required=True)
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--ranks-per-node", type=int, required=True)
    p.add_argument("--devices", choices=["cpu", "local-rank", "per-task"], required=True)
    p.add_argument("--launcher", choices=["mpirun", "srun"], required=True)
    p.add_argument("--slurm", action="store_true", help="inside a Slurm job")
    p.add_argument("--launcher-local-ranks", action="store_true", help="the launcher's local ranks are MPI's")
    p.add_argument("--min-cases", type=int, default=1)
    args = p.parse_args()
    with open(args.results) as f:
        doc = json.load(f)
    provenance = doc.get("provenance", {})
    check_layout(provenance.get("layout", {}), args)
    check_launcher(provenance.get("launcher", {}), args)
    check_cases(doc, args)
    if doc.get("backend") == "nccl":  # the supervisors ran on every node
        hosts = {s.get("host") for s in provenance.get("nccl", {}).get("supervisors", [])}
        expect(hosts == {f"n{i}" for i in range(1, args.nodes + 1)}, f"NCCL supervisors on {sorted(hosts)}")
    for f in failures:
        print(f"check_layout: {args.results}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
