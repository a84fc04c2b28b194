#!/usr/bin/env python3
"""A tiny PyTorch DistributedDataParallel job on one GPU, for the GPU check (scripts/device-check.sh).

Several processes (default 2) share one GPU as emulated nodes, as `commtune --emulate-nodes` does:
each has its own NCCL_HOSTID, so NCCL treats it as a one-GPU node and talks over loopback sockets
(NCCL_NET=Socket, NCCL_SOCKET_IFNAME=lo). They train a small stack of Linear layers for a few
steps with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL, each writing its NCCL log to its own file, under
the PyTorch profiler, each writing a Chrome trace. What comes out is a real NCCL collective log and
a real profiler trace of a real job.

Usage: python3 scripts/ddp-tiny.py --out DIR [--ranks 2] [--steps 6] [--device 0] [--timeout 90]

Writes into DIR: nccl-rankR.log (NCCL's log of rank R), trace-rankR.json (its Chrome trace),
rankR.txt (its output) and ddp-tiny.json (what ran: versions, losses, each rank's exit code).
Exit: 0 every rank trained and the ranks' parameters agree at the end; 1 a rank failed or the
parameters differ; 2 bad arguments; 124 the job ran past --timeout (its ranks are killed).

The parent starts each rank as `python3 THIS --rank R ...` with argv (no shell) and its own
environment; a rendezvous file in DIR joins them (no network port to pick).
"""
import argparse
import json
import os
import subprocess
import sys
import time


def arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for the logs, traces and ddp-tiny.json")
    parser.add_argument("--ranks", type=int, default=2, help="processes on the one GPU (2 to 8)")
    parser.add_argument("--steps", type=int, default=6, help="training steps (1 to 100)")
    parser.add_argument("--device", type=int, default=0, help="the CUDA device every rank uses")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds before the ranks are killed")
    parser.add_argument("--rank", type=int, default=None, help=argparse.SUPPRESS)  # set by the parent only
    args = parser.parse_args(argv)
    if not 2 <= args.ranks <= 8 or not 1 <= args.steps <= 100 or args.device < 0 or not 1 <= args.timeout <= 3600:
        parser.error("--ranks 2..8, --steps 1..100, --device >= 0, --timeout 1..3600")
    return args


def rank_environment(args, rank):
    """The parent's environment, plus what makes this rank a one-GPU NCCL node with its own log."""
    env = dict(os.environ)
    env.update({
        "RANK": str(rank), "WORLD_SIZE": str(args.ranks), "LOCAL_RANK": "0",
        "NCCL_HOSTID": f"ddp-tiny-emulated-node-{rank}",
        "NCCL_NET": "Socket", "NCCL_MNNVL_ENABLE": "0",
        "NCCL_DEBUG": "INFO", "NCCL_DEBUG_SUBSYS": "INIT,COLL",
        "NCCL_DEBUG_FILE": os.path.join(args.out, f"nccl-rank{rank}.log"),
    })
    env.setdefault("NCCL_SOCKET_IFNAME", "lo")
    return env


def parent(args):
    os.makedirs(args.out, exist_ok=True)
    store = os.path.join(args.out, "rendezvous")
    if os.path.exists(store):
        os.remove(store)
    started = time.monotonic()
    procs = []
    for rank in range(args.ranks):
        argv = [sys.executable, os.path.abspath(__file__), "--out", args.out, "--ranks", str(args.ranks),
                "--steps", str(args.steps), "--device", str(args.device), "--rank", str(rank)]
        with open(os.path.join(args.out, f"rank{rank}.txt"), "w") as log:
            procs.append(subprocess.Popen(argv, env=rank_environment(args, rank), stdout=log, stderr=subprocess.STDOUT))
    codes = [None] * args.ranks
    timed_out = False
    while any(c is None for c in codes):
        for i, p in enumerate(procs):
            if codes[i] is None:
                codes[i] = p.poll()
        if time.monotonic() - started > args.timeout:
            timed_out = True
            for i, p in enumerate(procs):
                if codes[i] is None:
                    p.kill()
                    codes[i] = p.wait()
            break
        # One rank failing leaves the others waiting for it in a collective: end them too.
        if any(c not in (None, 0) for c in codes):
            time.sleep(5)
            for i, p in enumerate(procs):
                if p.poll() is None:
                    p.kill()
                codes[i] = p.wait()
            break
        time.sleep(0.2)
    reports = []
    for rank in range(args.ranks):
        path = os.path.join(args.out, f"rank{rank}.json")
        try:
            with open(path) as f:
                reports.append(json.load(f))
        except (OSError, ValueError):
            reports.append(None)
    checksums = {r["checksum"] for r in reports if r}
    agree = len(checksums) == 1 and all(reports)
    summary = {"ranks": args.ranks, "steps": args.steps, "device": args.device, "exit_codes": codes,
               "timed_out": timed_out, "seconds": round(time.monotonic() - started, 2),
               "parameters_agree": agree, "per_rank": reports}
    with open(os.path.join(args.out, "ddp-tiny.json"), "w") as f:
        json.dump(summary, f, indent=2)
    first = next((r for r in reports if r), {})
    print(f"ddp-tiny: {args.ranks} ranks on GPU {args.device}, {args.steps} steps, exit codes {codes}, "
          f"parameters agree {agree}, torch {first.get('torch')}, NCCL {first.get('nccl')}, "
          f"loss {first.get('losses', ['-'])[0]} -> {first.get('losses', ['-'])[-1]}, {summary['seconds']} s")
    if os.path.exists(store):
        os.remove(store)
    if timed_out:
        return 124
    return 0 if all(c == 0 for c in codes) and agree else 1


def nccl_version_text(version):
    """torch.cuda.nccl.version(): a tuple (2, 28, 9), or in old releases a code such as 22809."""
    if isinstance(version, int):
        return f"{version // 10000}.{version // 100 % 100}.{version % 100}" if version >= 10000 else str(version)
    return ".".join(str(v) for v in version)


def child(args):
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel
    from torch.profiler import ProfilerActivity, profile

    rank = args.rank
    device = torch.device("cuda", args.device)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", init_method="file://" + os.path.join(args.out, "rendezvous"),
                            rank=rank, world_size=args.ranks, device_id=device)
    torch.manual_seed(1234)  # the same initial model everywhere (DDP broadcasts rank 0's anyway)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 16)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[args.device])
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.05)
    data = torch.Generator().manual_seed(100 + rank)  # each rank its own batches
    losses = []
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(args.steps):
            x = torch.randn(64, 256, generator=data).to(device)
            y = torch.randint(0, 16, (64,), generator=data).to(device)
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(ddp(x), y)
            loss.backward()  # the gradients' all-reduce
            optimizer.step()
            losses.append(round(loss.item(), 5))
        torch.cuda.synchronize(device)
    prof.export_chrome_trace(os.path.join(args.out, f"trace-rank{rank}.json"))
    # The ranks must hold the same parameters after training: compare a checksum through NCCL too.
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()]).double()
    checksum = flat.sum()
    gathered = [torch.zeros_like(checksum) for _ in range(args.ranks)]
    dist.all_gather(gathered, checksum)
    same = all(torch.equal(g, gathered[0]) for g in gathered)
    report = {"rank": rank, "torch": torch.__version__, "cuda": torch.version.cuda,
              "nccl": nccl_version_text(torch.cuda.nccl.version()), "gpu": torch.cuda.get_device_name(device),
              "losses": losses, "checksum": repr(checksum.item()), "checksums_agree": same}
    with open(os.path.join(args.out, f"rank{rank}.json"), "w") as f:
        json.dump(report, f)
    print(json.dumps(report))
    dist.destroy_process_group()
    return 0 if same else 1


def main(argv):
    args = arguments(argv)
    args.out = os.path.abspath(args.out)
    return parent(args) if args.rank is None else child(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
