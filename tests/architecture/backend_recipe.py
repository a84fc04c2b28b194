#!/usr/bin/env python3
"""The "A new backend" recipe of docs/architecture.md, followed by a test backend (Loopback).

1. In a scratch copy of src/ and tests/, BackendKind gets a value after the last one and
   kLastBackend moves to it, nothing else.
2. The translation units that could refuse it are compiled with the build's own flags
   (compile_commands.json, -fsyntax-only): those that name the backend identity and hold a
   switch, a static_assert or the backend count (a new value stops the build only through
   -Werror=switch or a table's static_assert), those that include a header that does, and every
   file the recipe names.
3. The files that refuse must be the files the recipe names, each as it names it: a row (in
   core/backend_kind.cpp and each table it lists) or a case (each switch it lists). A file that
   refuses unnamed, a named file that builds or one named in the wrong list is a line each.
4. The recipe followed: each refusing table gets the new backend's row (the last backend's row
   with the new kind), each switch a case beside the last backend's, and loopback_backend.cpp (a
   Backend whose kind() is the new value) goes to src/backend/loopback/; all must then compile.

    backend_recipe.py --root SOURCE_DIR --build BUILD_DIR [--jobs N] [--keep]

Exit status: 0 when the recipe holds, 1 when it does not, 2 when the recipe or the code cannot
be read as this script expects, 77 (skipped) when the build wrote no compile_commands.json.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

NEW = "Loopback"
IDENTITY = re.compile(r"\bBackendKind\b|\bbackend_row\b|\bcovers_every_backend\b|\btraits_of\(|"
                      r"\bkBackendCount\b|\bkLastBackend\b")
CAN_REFUSE = re.compile(r"\bswitch\b|\bstatic_assert\b|\bkBackendCount\b|\bkLastBackend\b")
PATH = re.compile(r"(?<!declared in )`([\w/]+\.(?:cpp|hpp))`")
ERROR = re.compile(r"^(.*?):(\d+):\d+: error: (.*)$")
TREES = ("src", "tests", "kernels")


class Unreadable(Exception):
    pass


def recipe(doc):
    """{file under src/: 'table' or 'switch'}, from the "- A new backend:" bullet."""
    lines = open(doc, encoding="utf-8").read().split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("- A new backend:")), None)
    if start is None:
        raise Unreadable(f"{doc}: no bullet \"- A new backend:\"")
    end = start + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    text = " ".join(line.strip() for line in lines[start:end])
    marks = ["then the build refuses", "a `case` in every `switch`", "Its code:"]
    cuts = [text.find(m) for m in marks]
    if min(cuts) < 0 or cuts != sorted(cuts):
        raise Unreadable(f"{doc}: the new-backend bullet no longer reads '{marks[0]} ... {marks[1]} ... "
                         f"{marks[2]}' in that order (update backend_recipe.py with it)")
    named = {}
    for part, kind in ((text[:cuts[1]], "table"), (text[cuts[1]:cuts[2]], "switch")):
        for path in PATH.findall(part):
            named[path] = kind
    named.pop("core/backend_kind.hpp", None)  # where the value goes, not a place that refuses it
    return named


def commands(build, root):
    """{absolute source path: (directory, argv)}: the build's own compile lines, unity batches
    opened into their member files."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    out = {}
    for e in entries:
        argv = shlex.split(e["command"]) if "command" in e else e["arguments"]
        members = [e["file"]]
        if "/Unity/unity_" in e["file"]:
            members = re.findall(r'#include\s+"([^"]+)"', open(e["file"], encoding="utf-8").read())
        for path in members:
            if path.endswith(".cpp") and path.startswith(root + os.sep) and path not in out:
                out[path] = (e["directory"], [a for a in argv if a != e["file"]])
    return out


def syntax_only(argv, source, root, scratch):
    """The compile line on the scratch tree, with -fsyntax-only instead of an object file."""
    out = []
    for i, a in enumerate(argv):
        if a not in ("-c", "-o") and (i == 0 or argv[i - 1] != "-o"):
            for tree in TREES:
                a = a.replace(os.path.join(root, tree), os.path.join(scratch, tree))
            out.append(a)
    return out + ["-fsyntax-only", source]


def prepare(root, scratch):
    """The scratch tree, with step 1 of the recipe; returns the last backend before it."""
    for tree in TREES:
        if os.path.isdir(os.path.join(root, tree)):
            shutil.copytree(os.path.join(root, tree), os.path.join(scratch, tree))
    header = os.path.join(scratch, "src/core/backend_kind.hpp")
    text = open(header, encoding="utf-8").read()
    enum = re.search(r"enum class BackendKind \{([^}]*)\}", text)
    last_line = re.search(r"kLastBackend = BackendKind::(\w+);", text)
    if not enum or not last_line:
        raise Unreadable("core/backend_kind.hpp: no `enum class BackendKind { ... }` or `kLastBackend = ...;`")
    last = enum.group(1).strip().rstrip(",").split(",")[-1].strip()
    if last_line.group(1) != last:
        raise Unreadable(f"core/backend_kind.hpp: kLastBackend is {last_line.group(1)}, the last value {last}")
    text = text.replace(enum.group(0), f"enum class BackendKind {{{enum.group(1).rstrip()}, {NEW} }}", 1)
    text = text.replace(last_line.group(0), f"kLastBackend = BackendKind::{NEW};", 1)
    open(header, "w", encoding="utf-8").write(text)
    return last


def candidates(sources, root, named):
    """The translation units that could refuse a new backend (see the module's text)."""
    headers = set()
    for folder, _, names in os.walk(os.path.join(root, "src")):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(".hpp") and not path.endswith("core/backend_kind.hpp"):
                text = open(path, encoding="utf-8").read()
                if IDENTITY.search(text) and CAN_REFUSE.search(text):
                    headers.add(os.path.relpath(path, os.path.join(root, "src")))
    chosen = set()
    for path in sources:
        text = open(path, encoding="utf-8").read()
        includes = set(re.findall(r'#include "([^"]+)"', text))
        if (IDENTITY.search(text) and CAN_REFUSE.search(text)) or includes & headers:
            chosen.add(path)
    for rel in named:
        path = full(rel, root)
        if path in sources:
            chosen.add(path)
        elif not rel.endswith(".hpp"):  # a header refuses through its includers, chosen above
            raise Unreadable(f"the recipe names {rel}, which the build does not compile")
    return sorted(chosen)


def short(path, tree):
    """A file's name as the recipe writes it: under src/ without the src/, else from the root."""
    rel = os.path.relpath(path, tree)
    return rel[len("src/"):] if rel.startswith("src/") else rel


def full(rel, tree):
    return os.path.join(tree, rel if rel.split("/")[0] in TREES[1:] else os.path.join("src", rel))


def compile_all(units, sources, root, scratch, jobs):
    """{file as the recipe names it: [(line, message)]} of every error, and the units that fail."""
    def one(path):
        directory, argv = sources[path]
        source = path.replace(root, scratch, 1)
        run = subprocess.run(syntax_only(argv, source, root, scratch), cwd=directory,
                             capture_output=True, text=True)
        return source, run.returncode, run.stderr

    errors, failed = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for unit, (source, code, stderr) in zip(units, pool.map(one, units)):
            failed += [unit] if code != 0 else []
            found = [m for m in map(ERROR.match, stderr.splitlines()) if m]
            if code != 0 and not found:
                found = [ERROR.match(f"{source}:0:0: error: {stderr.strip()[-300:]}")]
            for m in found:
                where = short(m.group(1), scratch)
                errors.setdefault(where, []).append((int(m.group(2)), m.group(3)))
    return errors, failed


def kind_of(message):
    if "not handled in switch" in message or "-Wswitch" in message:
        return "switch"
    return "table" if "static assert" in message or "static_assert" in message else "other"


def compare(named, errors):
    """One line for each difference between the files that refuse and the files named."""
    found = {}
    for path, errs in errors.items():
        kinds = {kind_of(message) for _, message in errs}
        found[path] = kinds.pop() if len(kinds) == 1 else "other"
    lines = []
    for path in sorted(set(found) | set(named)):
        line = errors.get(path, [(0, "")])[0]
        if path not in named:
            lines.append(f"{path}: refuses the new backend ({found[path]}, line {line[0]}: {line[1]}) "
                         f"but the recipe does not name it")
        elif path not in found:
            lines.append(f"{path}: the recipe names it ({named[path]}) but it builds with the new backend")
        elif found[path] != named[path]:
            lines.append(f"{path}: the recipe names it as a {named[path]}, it refuses as a {found[path]} "
                         f"(line {line[0]}: {line[1]})")
    return lines


def block_end(text, start):
    """The index after the brace block that opens at text[start] ("{"), literals skipped."""
    literal = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
    depth, i = 0, start
    while i < len(text):
        skipped = literal.match(text, i)
        if skipped:
            i = skipped.end()
            continue
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return i
    raise Unreadable("an unbalanced brace")


def follow(path, errs, last):
    """The edits of step 4 on one scratch file; raises Unreadable for an error it cannot follow."""
    text = open(path, encoding="utf-8").read()
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    edits = []  # (offset, text to insert)
    for line, message in errs:
        at = starts[line - 1]
        if kind_of(message) == "switch":
            case = re.compile(rf"^([ \t]*)case BackendKind::{last}:", re.M).search(text, at)
            if not case:
                raise Unreadable(f"{path}:{line}: a switch with no `case BackendKind::{last}:`")
            edits.append((case.start(), f"{case.group(1)}case BackendKind::{NEW}:\n"))
        elif kind_of(message) == "table":
            table = re.compile(r"covers_every_backend\((\w+)").search(text, at)
            if not table:
                raise Unreadable(f"{path}:{line}: a static_assert with no covers_every_backend(TABLE, ...)")
            defined = re.search(rf"\b{table.group(1)}\s*\{{", text)
            row = re.compile(rf"\{{\s*BackendKind::{last}\b").search(text, defined.end()) if defined else None
            if not row:
                raise Unreadable(f"{path}:{line}: no row {{BackendKind::{last}, ...}} in {table.group(1)}")
            end = block_end(text, row.start())
            indent = text[starts[text.count("\n", 0, row.start())]:row.start()]
            copy = text[row.start():end].replace(f"BackendKind::{last}", f"BackendKind::{NEW}", 1)
            edits.append((end + 1 if text[end] == "," else end, f"\n{indent}{copy},"))
        else:
            raise Unreadable(f"{path}:{line}: the recipe says nothing of this error: {message}")
    for offset, insert in sorted(edits, reverse=True):
        text = text[:offset] + insert + text[offset:]
    open(path, "w", encoding="utf-8").write(text)


def check(args, scratch):
    root = os.path.realpath(args.root)
    named = recipe(os.path.join(root, "docs/architecture.md"))
    sources = commands(args.build, root)
    last = prepare(root, scratch)
    units = candidates(sources, root, named)
    errors, failed = compile_all(units, sources, root, scratch, args.jobs)
    print(f"{len(units)} translation units compiled with BackendKind::{NEW} after {last}; "
          f"refused by: {', '.join(sorted(errors)) or 'none'}")
    problems = compare(named, errors)
    if problems:
        print("\n".join(problems))
        return 1
    for rel, errs in errors.items():
        follow(full(rel, scratch), errs, last)
    backend = full("backend/loopback/loopback_backend.cpp", scratch)
    os.makedirs(os.path.dirname(backend))
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "loopback_backend.cpp"), backend)
    again = failed + [backend.replace(scratch, root, 1)]
    sources[again[-1]] = sources[full("core/backend_kind.cpp", root)]  # the flags of a src/ file
    still, _ = compile_all(again, sources, root, scratch, args.jobs)
    for path, errs in sorted(still.items()):
        for line, message in errs:
            print(f"{path}:{line}: still refuses after the recipe's rows and cases: {message}")
    print(f"the recipe followed: {len(again)} files compiled, {len(still)} still refuse")
    return 1 if still else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True, help="the source tree")
    parser.add_argument("--build", required=True, help="a configured build (its compile_commands.json)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch tree and print its path")
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.build, "compile_commands.json")):
        print(f"{args.build}: no compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS, Makefile or Ninja)")
        return 77
    scratch = tempfile.mkdtemp(prefix="backend_recipe.")
    try:
        return check(args, scratch)
    except Unreadable as e:
        print(f"backend_recipe.py: {e}")
        return 2
    finally:
        if args.keep:
            print(f"scratch tree: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
