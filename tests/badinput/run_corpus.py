#!/usr/bin/env python3
"""The bad-input corpus: every input of tests/badinput/*.txt must be refused with exit code 2,
exactly one line on stderr ("commtune: error: ...") that names the input, nothing on stdout, and
no file created or changed in the run's scratch directory.

Manifests hold one input per line, "NAME | NEEDLE | PAYLOAD" ('#' starts a comment):
  cli.txt              PAYLOAD: commtune's arguments (shell words); NEEDLE names the input (a flag)
  mpi.txt              the same, run under mpirun -np 2 (--mpirun): the line comes from rank 0 only
  configs.txt          PAYLOAD: the config file's text, or @GENERATOR; run by `sweep --config`
  results.txt          PAYLOAD: edits of base/results.json; run by tune, export and compare (both sides)
  nccl_tests.txt       PAYLOAD: edits of base/nccl-tests.json (nccl-tests' -J output); run by compare (both sides)
  recommendations.txt  PAYLOAD: edits of base/recommendation.json; run by export
  compare_reports.txt  PAYLOAD: edits of base/compare.json (compare --format json); run by report
  doctor_reports.txt   PAYLOAD: edits of base/doctor.json (doctor --json); run by report
  workloads.txt        PAYLOAD: edits of base/workload.json; run by workload --check
(results.txt's inputs are run by report as well.)
For file inputs the message must also hold the file's path. Edits, joined by " ;; ":
  set PATH = JSON   (JSON may be raw:TEXT, written as is: raw:1e400)
  del PATH | dup PATH (append a copy of a list element) | sub OLD => NEW (in the file's text)
  text TEXT (the whole file) | gen GENERATOR
PATH: cases[3].time_us.median. Placeholders in payloads and needles: {base} {inputs} {fixtures}
{fifo} {dir} {deep}.

Usage: run_corpus.py COMMTUNE [--mpirun "mpirun --oversubscribe"] [--materialize DIR] [-j N]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "base")
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures")
TIMEOUT_S = 30


def read_manifest(name):
    entries = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split(" | ", 2)
            if len(parts) != 3:
                sys.exit(f"{name}:{number}: expected NAME | NEEDLE | PAYLOAD")
            entries.append(tuple(p.strip() for p in parts))
    names = [e[0] for e in entries]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        sys.exit(f"{name}: names used twice: {sorted(duplicates)}")
    return entries


# Generated inputs: too large, or not text, to keep in a manifest.
GENERATORS = {
    "deep100k": lambda: b'{"sweep": ' + b"[" * 100000 + b"]" * 100000 + b"}",
    "deep50k": lambda: b'{"sweep": {"min_bytes": ' + b"[" * 50000 + b"]" * 50000 + b"}}",
    "long-string": lambda: b'{"sweep": {"dtype": "' + b"x" * 200000 + b'"}}',
    "long-knob": lambda: b'{"settings": [{"name": "x", "knobs": {"coll_tuned_allreduce_algorithm": "' + b"9" * 5000 + b'"}}]}',
    "long-key": lambda: b'{"' + b"k" * 100000 + b'": 1}',
    "nul": lambda: b'{"name": "a\x00b"}',
    "nul-outside": lambda: b'{"name": "a"}\x00',
    "bad-utf8": lambda: b'{"name": "\xff\xfe"}',
    "long-number": lambda: b'{"sweep": {"factor": 1' + b"0" * 100000 + b"}}",
    "binary": lambda: bytes(range(256)) * 8,
    "empty": lambda: b"",
    "whitespace": lambda: b"  \n\t ",
}


def parse_path(path):
    tokens = []
    for part in re.finditer(r"([^.\[\]]+)|\[(\d+)\]", path):
        tokens.append(part.group(1) if part.group(1) is not None else int(part.group(2)))
    return tokens


def locate(doc, path):
    tokens = parse_path(path)
    parent = doc
    for t in tokens[:-1]:
        parent = parent[t]
    return parent, tokens[-1]


def apply_edits(base_text, payload):
    doc = json.loads(base_text)
    raws = {}
    subs = []
    for edit in payload.split(" ;; "):
        op, _, rest = edit.strip().partition(" ")
        if op == "text":
            return rest.encode()
        if op == "gen":
            return GENERATORS[rest]()
        if op == "set":
            path, _, value = rest.partition(" = ")
            parent, key = locate(doc, path.strip())
            if value.startswith("raw:"):
                marker = f"__raw_{len(raws)}__"
                raws[json.dumps(marker)] = value[4:]
                parent[key] = marker
            else:
                parent[key] = json.loads(value)
        elif op == "del":
            parent, key = locate(doc, rest.strip())
            del parent[key]
        elif op == "dup":
            parent, key = locate(doc, rest.strip())
            parent.append(json.loads(json.dumps(parent[key])))
        elif op == "sub":
            old, _, new = rest.partition(" => ")
            subs.append((old, new))
        else:
            raise ValueError(f"unknown edit '{op}'")
    text = json.dumps(doc)
    for marker, raw in raws.items():
        text = text.replace(marker, raw)
    for old, new in subs:
        if old not in text:
            raise ValueError(f"sub: '{old}' is not in the file")
        text = text.replace(old, new, 1)
    return text.encode()


def materialize(inputs):
    """Writes every file input under `inputs`; returns {kind: [(name, needle, path)]}."""
    out = {}
    bases = {"results": os.path.join(BASE, "results.json"), "recommendations": os.path.join(BASE, "recommendation.json"),
             "nccl_tests": os.path.join(BASE, "nccl-tests.json"), "compare_reports": os.path.join(BASE, "compare.json"),
             "doctor_reports": os.path.join(BASE, "doctor.json"), "workloads": os.path.join(BASE, "workload.json")}
    for kind in ("configs", "results", "recommendations", "nccl_tests", "compare_reports", "doctor_reports",
                 "workloads"):
        os.makedirs(os.path.join(inputs, kind), exist_ok=True)
        out[kind] = []
        for name, needle, payload in read_manifest(kind + ".txt"):
            path = os.path.join(inputs, kind, name + ".json")
            if kind == "configs":
                data = GENERATORS[payload[1:]]() if payload.startswith("@") else payload.encode()
            else:
                with open(bases[kind], encoding="utf-8") as f:
                    data = apply_edits(f.read(), payload)
            with open(path, "wb") as f:
                f.write(data)
            out[kind].append((name, needle, path))
    return out


def snapshot(directory):
    state = {}
    for root, dirs, files in os.walk(directory):
        for d in dirs:
            state[os.path.relpath(os.path.join(root, d), directory)] = "dir"
        for name in files:
            p = os.path.join(root, name)
            with open(p, "rb") as f:
                state[os.path.relpath(p, directory)] = hashlib.sha1(f.read()).hexdigest()
    return state


class Runner:
    def __init__(self, commtune, mpirun, places, verbose=False):
        self.verbose = verbose
        self.commtune = commtune
        self.mpirun = mpirun
        self.places = places

    def expand(self, text):
        for key, value in self.places.items():
            text = text.replace("{" + key + "}", value)
        return text

    def run(self, label, args, needles):
        """One refused run; returns a failure text or None."""
        scratch = tempfile.mkdtemp(prefix="badinput-")
        try:
            shutil.copy(os.path.join(BASE, "results.json"), os.path.join(scratch, "existing.json"))
            before = snapshot(scratch)
            command = (shlex.split(self.mpirun) + ["-q", "-np", "2"] if self.mpirun else []) + [self.commtune] + args
            try:
                p = subprocess.run(command, cwd=scratch, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                return f"{label}: hung for {TIMEOUT_S} s: {shlex.join(args)}"
            err = p.stderr.decode(errors="replace")
            problems = []
            if p.returncode != 2:
                problems.append(f"exit {p.returncode}, wanted 2")
            if err.count("\n") != 1 or not err.endswith("\n"):
                problems.append(f"{err.count(chr(10))} lines on stderr, wanted 1")
            if not err.startswith("commtune: error: "):
                problems.append("stderr does not start with 'commtune: error: '")
            for needle in needles:
                if needle not in err:
                    problems.append(f"the message does not name '{needle}'")
            if p.stdout:
                problems.append(f"{len(p.stdout)} bytes on stdout")
            after = snapshot(scratch)
            if after != before:
                changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                problems.append(f"scratch dir changed: {changed}")
            if problems:
                return f"{label}: {'; '.join(problems)}\n    args: {shlex.join(args)}\n    stderr: {err[:600]!r}"
            if self.verbose:
                print(f"ok {label}: {err.rstrip()}", flush=True)
            return None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def jobs_for(runner, files, cli_manifest):
    """(label, args, needles) of every run."""
    jobs = []
    for name, needle, payload in read_manifest(cli_manifest):
        jobs.append((f"{cli_manifest}:{name}", shlex.split(runner.expand(payload)), [runner.expand(needle)]))
    if runner.mpirun:
        return jobs
    base_results = os.path.join(BASE, "results.json")
    for name, needle, path in files["configs"]:
        jobs.append((f"configs:{name}", ["sweep", "--backend", "mpi", "--config", path, "--out", "r.json"], [needle, path]))
    for name, needle, path in files["results"]:
        runs = [["tune", path, "--out", "rec.json"],
                ["export", path, "--format", "all", "--out-dir", "exported"],
                ["compare", path, base_results, "--out", "compare.md"],
                ["compare", base_results, path, "--format", "json", "--out", "compare.json"],
                ["report", path, "--out", "report.html"]]
        jobs += [(f"results:{name}:{args[0]}", args, [needle, path]) for args in runs]
    for name, needle, path in files["nccl_tests"]:
        runs = [["compare", path, base_results, "--out", "compare.md"],
                ["compare", "--baseline", base_results, "--current", path, "--format", "json", "--out", "compare.json"]]
        jobs += [(f"nccl_tests:{name}:{i}", args, [needle, path]) for i, args in enumerate(runs)]
    for name, needle, path in files["recommendations"]:
        runs = [["export", path, "--format", "shell", "--out", "env.sh"],
                ["export", path, "--format", "all", "--out-dir", "exported"]]
        jobs += [(f"recommendations:{name}:{args[2]}", args, [needle, path]) for args in runs]
    for kind in ("compare_reports", "doctor_reports"):
        for name, needle, path in files[kind]:
            jobs.append((f"{kind}:{name}", ["report", base_results, path, "--out", "report.html"], [needle, path]))
    for name, needle, path in files["workloads"]:
        jobs.append((f"workloads:{name}", ["workload", "--check", path], [needle, path]))
    return jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commtune", nargs="?")
    parser.add_argument("--mpirun", default="", help="run mpi.txt under this launcher with -np 2")
    parser.add_argument("--materialize", metavar="DIR", help="only write the file inputs into DIR (fuzzer seeds)")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every message")
    options = parser.parse_args()
    if options.materialize:
        files = materialize(options.materialize)
        print(f"badinput: {sum(len(v) for v in files.values())} file inputs written to {options.materialize}")
        return 0
    if not options.commtune:
        parser.error("COMMTUNE is required")
    work = tempfile.mkdtemp(prefix="badinput-inputs-")
    try:
        fifo = os.path.join(work, "fifo")
        os.mkfifo(fifo)
        deep = os.path.join(work, "deep.json")
        with open(deep, "wb") as f:
            f.write(GENERATORS["deep100k"]())
        os.makedirs(os.path.join(work, "dir"))
        places = {"base": BASE, "inputs": os.path.join(work, "inputs"), "fixtures": FIXTURES, "fifo": fifo,
                  "dir": os.path.join(work, "dir"), "deep": deep}
        files = materialize(places["inputs"])
        runner = Runner(os.path.abspath(options.commtune), options.mpirun, places, options.verbose)
        manifest = "mpi.txt" if options.mpirun else "cli.txt"
        jobs = jobs_for(runner, files, manifest)
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.j) as pool:
            failures = [f for f in pool.map(lambda job: runner.run(*job), jobs) if f]
        inputs = len(read_manifest(manifest)) + (0 if options.mpirun else sum(len(v) for v in files.values()))
        counts = "" if options.mpirun else ", ".join(f"{k} {len(v)}" for k, v in files.items())
        print(f"badinput: {inputs} inputs ({manifest} {len(read_manifest(manifest))}{', ' + counts if counts else ''}), "
              f"{len(jobs)} runs, {len(failures)} failed")
        for failure in failures:
            print("FAIL " + failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
