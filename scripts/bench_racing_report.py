#!/usr/bin/env python3
"""The figures of scripts/bench-racing.sh, from one run's folder (its sweeps' results, tables,
recommendations and .time files), or with --summary the medians over several runs' folders.

    bench_racing_report.py RUN_DIR            prints the run's figures, writes RUN_DIR/summary.json
    bench_racing_report.py --summary DIR...   medians of the runs' summary.json
"""
import json
import os
import re
import statistics
import sys

WITHIN = 1.02  # a pick other than the first exhaustive sweep's is fine within 2% of its time


def load(path):
    with open(path) as f:
        return json.load(f)


def cost_of(cases):
    """Where a sweep's case time went, from each case's cost (every racing round it ran added up):
    seconds of timed calls, of warm-up (and pilots dropped for blocks), of the rest inside the cases
    (buffers, data checks, the agreement after each batch, ranks waiting for a descheduled one),
    the cases' whole seconds, and the timed calls. None where the results file has no costs."""
    costs = [c["cost"] for c in cases if "cost" in c]
    if not costs:
        return None
    timed, warm, whole = (sum(c[k] for c in costs) for k in ("timed_s", "warmup_s", "case_s"))
    return {"timed": timed, "warmup": warm, "other": whole - timed - warm, "cases": whole,
            "calls": sum(c["timed_calls"] for c in costs)}


def case_rounds(run_dir, name, cases):
    """Cases measured, counting each racing round a case ran in (the table's round lines)."""
    rounds = [int(m.group(1)) for m in re.finditer(r"^# racing round \d+ of at most \d+: (\d+) cases",
                                                   open(f"{run_dir}/{name}.txt").read(), re.M)]
    return sum(rounds) if rounds else len(cases)


def picks(run_dir, name):
    rec = load(f"{run_dir}/{name}.tune.json")
    return ({(d["collective"], d["bytes"]): d["winner"] or "default" for d in rec["sizes"]},
            {(d["collective"], d["bytes"]): d["reason"] for d in rec["sizes"]}, rec)


def agreement(run_dir, reference, other, times, show):
    """Sizes where `other` picks what `reference` picks or a setting within 2% of it, timed by `times`."""
    ref, ref_why, _ = picks(run_dir, reference)
    oth, oth_why, _ = picks(run_dir, other)
    good = 0
    if show:
        print(f"{'collective':<10} {'size':>8}  {reference + ' pick':<30} {other + ' pick':<30} {'time ratio':>10}  verdict")
    for key in sorted(ref):
        e, r = ref[key], oth.get(key, "(none)")
        te, tr = times.get((e,) + key), times.get((r,) + key)
        ratio = tr / te if te and tr else float("nan")
        ok = e == r or ratio <= WITHIN
        good += ok
        if show and not ok:
            print(f"{key[0]:<10} {key[1]:>8}  {e:<30} {r:<30} {ratio:>10.3f}  WORSE")
            print(f"{'':<20}{other}: {oth_why.get(key) or 'won'}; {reference}: {ref_why.get(key) or 'won'}")
    return good, len(ref)


def remeasure_line(run_dir, name):
    _, _, rec = picks(run_dir, name)
    rounds = {}
    for c in rec["confirmation_cases"]:
        if c["setting"] != "default":
            key = (c["setting"], c["collective"], c["bytes"])
            ran = c["time_us"]["samples"] if c["status"] in ("ok", "wrong-data") else 0
            rounds[key] = min(rounds.get(key, ran), ran)
    stopped = sum(1 for r in rounds.values() if r < rec["confirm_rounds"])
    confirmed = sum(1 for s in rec["sizes"] if s["confirmed"])
    return (f"{len(rounds)} finalist(s) at {len({k[1:] for k in rounds})} size(s), at most "
            f"{rec['confirm_rounds']} rounds; {stopped} stopped early; {confirmed} size(s) confirmed")


def pace(run_dir, name, reference):
    """The median over the cases both measured of `name`'s case median / `reference`'s: how much
    slower (above 1) the machine ran each call during `name` than during `reference`. This VM has
    phases of minutes at up to 3x its speed, and one landing on one command skews the ratio."""
    ref = {(c["setting"], c["collective"], c["bytes"], c["placement"]): c["time_us"]["median"]
           for c in load(f"{run_dir}/{reference}.json")["cases"] if c["status"] == "ok"}
    ratios = [c["time_us"]["median"] / ref[k] for c in load(f"{run_dir}/{name}.json")["cases"]
              if c["status"] == "ok"
              for k in [(c["setting"], c["collective"], c["bytes"], c["placement"])] if ref.get(k)]
    return statistics.median(ratios) if ratios else float("nan")


BANDS = ((256, "up to 256 B"), (512 * 1024, "512 B to 512 KiB"), (float("inf"), "1 MiB and up"))


def band_of(nbytes):
    return next(name for top, name in BANDS if nbytes <= top)


def where_cases_went(run_dir):
    """Case seconds per (collective, size band): the raced sweep's against the exhaustive one's, and
    the raced ones by the racing rounds each case ran (a setting raced out after round R ran R; the
    rest ran to the end of the race at its size, or were measured once where nothing raced)."""
    rows = {}
    for name in ("raced", "exhaustive"):
        for c in load(f"{run_dir}/{name}.json")["cases"]:
            row = rows.setdefault((c["collective"], band_of(c["bytes"])), {})
            seconds = c.get("cost", {}).get("case_s", 0.0)
            row[name] = row.get(name, 0.0) + seconds
            if name == "raced":
                ran = c.get("raced_out", {}).get("round", "end")
                row[ran] = row.get(ran, 0.0) + seconds
    order = [name for _, name in BANDS]
    print(f"{'collective':<10} {'sizes':<17} {'raced':>7} {'exhaust.':>8}  raced by its cases' rounds: "
          f"{'1':>6} {'2':>6} {'3':>6} {'end':>6}")
    for (collective, band), row in sorted(rows.items(), key=lambda kv: (kv[0][0], order.index(kv[0][1]))):
        by_round = " ".join(f"{row.get(r, 0.0):>6.2f}" for r in (1, 2, 3, "end"))
        print(f"{collective:<10} {band:<17} {row.get('raced', 0.0):>7.2f} {row.get('exhaustive', 0.0):>8.2f}"
              f"  {'':<27}{by_round}")


def report_run(run_dir):
    names = [n for n in ("exhaustive", "raced", "exhaustive-again") if os.path.exists(f"{run_dir}/{n}.time")]
    whole, sweep = {}, {}
    print(f"{'command':<17} {'whole':>8} {'sweep':>8} {'tuning':>8} {'timed':>8} {'warm-up':>8} "
          f"{'in case':>8} {'between':>8} {'case rounds':>11} {'timed calls':>12}")
    for n in names:
        whole[n], sweep[n] = map(float, open(f"{run_dir}/{n}.time").read().split())
        cases = load(f"{run_dir}/{n}.json")["cases"]
        k = case_rounds(run_dir, n, cases)
        c = cost_of(cases)
        split = (f"{c['timed']:>7.1f}s {c['warmup']:>7.1f}s {c['other']:>7.1f}s {sweep[n] - c['cases']:>7.1f}s"
                 if c else f"{'(no cost in the results file)':>35}")
        print(f"{n:<17} {whole[n]:>7.1f}s {sweep[n]:>7.1f}s {whole[n] - sweep[n]:>7.1f}s {split} {k:>11} "
              f"{c['calls'] if c else '':>12}")
        print(f"{'':<17} re-measure: {remeasure_line(run_dir, n)}")
    print("case seconds by collective and size:")
    where_cases_went(run_dir)
    times = {}
    for c in load(f"{run_dir}/exhaustive.json")["cases"]:
        if c["status"] == "ok":
            key = (c["setting"], c["collective"], c["bytes"])
            times[key] = times.get(key, 0.0) + c["time_us"]["median"]
    out = {"ratio": whole["raced"] / whole["exhaustive"], "sweep_ratio": sweep["raced"] / sweep["exhaustive"]}
    out["raced"], out["sizes"] = agreement(run_dir, "exhaustive", "raced", times, True)
    out["pace"] = pace(run_dir, "raced", "exhaustive")
    print(f"ratio raced/exhaustive, whole command: {out['ratio']:.3f} (target <= 0.25); the sweeps alone: "
          f"{out['sweep_ratio']:.3f}")
    print(f"the machine's pace during the raced command against the exhaustive one: {out['pace']:.3f} "
          f"(case medians, median over the cases; above 1: each call was slower then)")
    print(f"raced picks the same as the first exhaustive sweep's, or within 2%: {out['raced']} of {out['sizes']}")
    if "exhaustive-again" in names:
        out["again"], _ = agreement(run_dir, "exhaustive", "exhaustive-again", times, True)
        print(f"the second exhaustive sweep's picks against the first's (the floor drift sets): "
              f"{out['again']} of {out['sizes']}")
        again_times = {}
        for c in load(f"{run_dir}/exhaustive-again.json")["cases"]:
            if c["status"] == "ok":
                key = (c["setting"], c["collective"], c["bytes"])
                again_times[key] = again_times.get(key, 0.0) + c["time_us"]["median"]
        out["raced_vs_again"], _ = agreement(run_dir, "exhaustive-again", "raced", again_times, False)
        print(f"raced picks against the second exhaustive sweep's (timed by it): {out['raced_vs_again']} of {out['sizes']}")
    with open(f"{run_dir}/summary.json", "w") as f:
        json.dump(out, f)


def summary(run_dirs):
    runs = [load(f"{d}/summary.json") for d in run_dirs]
    med = lambda key: statistics.median(r[key] for r in runs if key in r)
    ratios = ", ".join("%.3f" % r["ratio"] for r in runs)
    print(f"== {len(runs)} runs: whole-command ratio raced/exhaustive per run {ratios}; "
          f"median {med('ratio'):.3f} (target <= 0.25)")
    if all("pace" in r for r in runs):
        print(f"the machine's pace during the raced command against the exhaustive one, per run: "
              f"{', '.join('%.3f' % r['pace'] for r in runs)}")
    print(f"raced picks agreeing with the first exhaustive sweep: {', '.join(str(r['raced']) for r in runs)} "
          f"of {runs[0]['sizes']}; median {med('raced')}")
    if all("again" in r for r in runs):
        print(f"second exhaustive sweep agreeing with the first: {', '.join(str(r['again']) for r in runs)}; "
              f"median {med('again')}")
        ok = sum(r["raced"] >= r["again"] for r in runs)
        print(f"runs where the raced picks agree at least as often as the second exhaustive sweep's: {ok} of {len(runs)}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    elif len(sys.argv) == 2:
        report_run(sys.argv[1])
    else:
        sys.exit(__doc__)
