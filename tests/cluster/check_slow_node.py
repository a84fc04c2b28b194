#!/usr/bin/env python3
"""The slow-node check against physics: with one node's link shaped to RATE bits/s, an
all-reduce of S bytes must carry at least S bytes into that node (its ranks need a result that
depends on every other node's data), so no iteration can take less than S * 8 / RATE seconds.
The large sizes are those whose bound is at least 1.5 times the unshaped run's median (there the
link, not the CPUs, must decide); the largest size must be one. For each: the shaped run's
median respects the bound (with 10% for the token bucket's burst) and compare called it SLOWER.
Exit 0 when all hold."""
import argparse
import json
import sys


def medians(path):
    with open(path) as f:
        doc = json.load(f)
    return {c["bytes"]: c["time_us"]["median"] for c in doc["cases"]
            if c["collective"] == "allreduce" and c["status"] == "ok"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("fast")
    p.add_argument("slow")
    p.add_argument("compare")
    p.add_argument("--rate-bits", type=float, required=True)
    args = p.parse_args()
    fast, slow = medians(args.fast), medians(args.slow)
    with open(args.compare) as f:
        verdicts = {c["bytes"]: c["verdict"] for c in json.load(f)["cases"] if c["collective"] == "allreduce"}
    failures = []
    sizes = sorted(b for b in slow if b in fast)
    if not sizes:
        failures.append("no all-reduce size measured in both runs")
    large = []
    for size in sizes:
        bound_us = size * 8 / args.rate_bits * 1e6
        is_large = bound_us >= 1.5 * fast[size]
        print(f"{size:>8} B: unshaped {fast[size]:10.1f} us, shaped {slow[size]:10.1f} us, link bound {bound_us:10.1f} us, "
              f"compare {verdicts.get(size)}{'' if is_large else ' (not large: the unshaped run is within 1.5x of the bound)'}")
        if is_large:
            large.append(size)
            if slow[size] < 0.9 * bound_us:
                failures.append(f"{size} B: shaped median {slow[size]:.1f} us is below the link's bound {bound_us:.1f} us")
            if verdicts.get(size) != "SLOWER":
                failures.append(f"{size} B: compare says {verdicts.get(size)}, wanted SLOWER")
    if sizes and sizes[-1] not in large:
        failures.append(f"the largest size, {sizes[-1]} B, is not large: the unshaped run took {fast[sizes[-1]]:.1f} us")
    for f in failures:
        print(f"check_slow_node: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
