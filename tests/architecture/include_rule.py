#!/usr/bin/env python3
"""The include rule: every #include "..." of src/ and kernels/ against the Layers table.

The table under the "Layers" heading of docs/architecture.md, with the columns
`folder | what | may include`, is the rule. A source file belongs to the longest folder of the
table that contains it (folders are named relative to src/; files directly in src/ form the
folder `main`; files of kernels/ the folder `kernels`). An include is allowed when it stays in its
folder or reaches a folder that the source's row lists under "may include".

Exit status: 0 when every include keeps the rule, 1 when any does not (one line per finding),
2 when the table cannot be read.
"""

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOURCE_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
HEADER = ["folder", "what", "may include"]


class TableError(Exception):
    pass


def cells(line):
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [cell.strip() for cell in line[1:-1].split("|")]


def folder_name(text):
    return text.strip().strip("`").strip().rstrip("/")


def read_table(doc):
    """Returns {folder: set of folders it may include} and the table's line per folder."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    heading = next((i for i, line in enumerate(lines)
                    if re.match(r"^#+\s+Layers\b", line)), None)
    if heading is None:
        raise TableError(f"{doc}: no \"Layers\" heading")
    start = None
    for i in range(heading + 1, len(lines)):
        if lines[i].startswith("#"):
            break
        row = cells(lines[i])
        if row is not None and [c.lower() for c in row] == HEADER:
            start = i
            break
    if start is None:
        raise TableError(f"{doc}: no table `{' | '.join(HEADER)}` under the \"Layers\" heading")

    rule = {}
    where = {}
    for i in range(start + 1, len(lines)):
        row = cells(lines[i])
        if row is None:
            break
        if all(re.fullmatch(r":?-+:?", c) for c in row):
            continue
        if len(row) != len(HEADER):
            raise TableError(f"{doc}:{i + 1}: a row of the Layers table needs {len(HEADER)} cells")
        folder = folder_name(row[0])
        if not folder:
            raise TableError(f"{doc}:{i + 1}: a row of the Layers table names no folder")
        if folder in rule:
            raise TableError(f"{doc}:{i + 1}: folder {folder} has two rows")
        allowed = row[2].strip()
        targets = set()
        if allowed not in ("", "-"):
            targets = {folder_name(t) for t in allowed.split(",")}
        rule[folder] = targets
        where[folder] = i + 1
    if not rule:
        raise TableError(f"{doc}: the Layers table has no rows")
    return rule, where


def table_problems(rule, where, doc):
    problems = []
    for folder, targets in rule.items():
        for target in sorted(targets - set(rule)):
            problems.append(f"{doc}:{where[folder]}: folder {folder} may include {target}, "
                            "which is no folder of the table")
    # A cycle: depth-first search over the "may include" edges, reporting each cycle once.
    state = {}
    seen_cycles = set()

    def visit(folder, path):
        state[folder] = "open"
        path.append(folder)
        for target in sorted(rule[folder] & set(rule)):
            if target == folder:
                continue
            if state.get(target) == "open":
                cycle = path[path.index(target):]
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    problems.append(f"{doc}:{where[target]}: the Layers table has a cycle: "
                                    + " -> ".join(cycle + [target]))
            elif target not in state:
                visit(target, path)
        path.pop()
        state[folder] = "done"

    for folder in rule:
        if folder not in state:
            visit(folder, [])
    return problems


class Tree:
    def __init__(self, src, kernels, rule):
        self.src = src.resolve()
        self.kernels = kernels.resolve() if kernels else None
        self.rule = rule
        self.shown_root = self.src.parent

    def show(self, path):
        try:
            return str(path.relative_to(self.shown_root))
        except ValueError:
            return str(path)

    def folder_of(self, path):
        """The longest folder of the table that contains path, or None."""
        if self.kernels and path.is_relative_to(self.kernels):
            return "kernels" if "kernels" in self.rule else None
        if not path.is_relative_to(self.src):
            return None
        parent = path.parent.relative_to(self.src).as_posix()
        if parent == ".":
            return "main" if "main" in self.rule else None
        best = None
        for folder in self.rule:
            if folder in ("main", "kernels"):
                continue
            if parent == folder or parent.startswith(folder + "/"):
                if best is None or len(folder) > len(best):
                    best = folder
        return best

    def folder_path(self, folder):
        if folder == "main":
            return self.src
        if folder == "kernels":
            return self.kernels
        return self.src / folder

    def resolve(self, source, name):
        """Where the compiler finds "name": next to the source first, then under src/ and kernels/."""
        for base in (source.parent, self.src, self.kernels):
            if base is None:
                continue
            candidate = (base / name).resolve()
            if candidate.is_file():
                return candidate
        return None

    def sources(self):
        for top in (self.src, self.kernels):
            if top is None or not top.is_dir():
                continue
            for path in sorted(top.rglob("*")):
                if path.is_file() and path.suffix in SOURCE_SUFFIXES:
                    yield path


def check(src, kernels, doc):
    rule, where = read_table(doc)
    problems = table_problems(rule, where, doc)
    tree = Tree(src, kernels, rule)
    for folder in rule:
        path = tree.folder_path(folder)
        if path is None or not path.is_dir():
            problems.append(f"{doc}:{where[folder]}: the Layers table names folder {folder}, "
                            "which does not exist")

    for source in tree.sources():
        shown = tree.show(source)
        folder = tree.folder_of(source)
        if folder is None:
            problems.append(f"{shown}: is in no folder of the Layers table")
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            match = INCLUDE.match(line)
            if not match:
                continue
            name = match.group(1)
            target = tree.resolve(source, name)
            if target is None:
                problems.append(f'{shown}:{number}: includes "{name}", which is no file of '
                                "src/ or kernels/")
                continue
            target_folder = tree.folder_of(target)
            if target_folder is None:
                problems.append(f'{shown}:{number}: includes "{name}", which is in no folder '
                                "of the Layers table")
                continue
            if target_folder == folder or target_folder in rule[folder]:
                continue
            problems.append(f'{shown}:{number}: includes "{name}" (folder {target_folder}), '
                            f"which folder {folder} may not include")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the source tree (default: src/)")
    parser.add_argument("--kernels", type=Path, default=REPO / "kernels",
                        help="the CUDA kernels (default: kernels/)")
    parser.add_argument("--doc", type=Path, default=REPO / "docs" / "architecture.md",
                        help="the document with the Layers table (default: docs/architecture.md)")
    args = parser.parse_args()
    try:
        problems = check(args.src, args.kernels, args.doc)
    except (TableError, OSError) as error:
        print(f"include_rule: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if problems:
        print(f"include_rule: {len(problems)} finding(s) against the Layers table of {args.doc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
