#!/usr/bin/env python3
"""Proves that backend_recipe.py can fail, without a compiler: its reading of a synthetic recipe,
its comparison of synthetic refusals with it (an unnamed file, a named file that builds, a file
named in the wrong list) and its rows and cases on a synthetic source."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backend_recipe  # noqa: E402

DOC = """\
# Synthetic architecture

- A new backend: its value, and its row in `core/backend_kind.cpp`; then the build refuses to
  finish until it has a row in `launch/launch.cpp` (declared in `launch/backend_launches.hpp`),
  and a `case` in every `switch` over `BackendKind` (`tune/export_plan.cpp`). Its code: a
  folder, `core/backend_kind.hpp` and `backend/other.cpp` are not places that refuse.
- A new collective: `core/types.cpp`.
"""

SOURCE = """\
constexpr std::array<Row, kBackendCount> kRows{{
    {BackendKind::Mpi, "mpi", {1, 2}},
    {BackendKind::Nccl, "n{cc}l", {3,
                                  4}},
}};
static_assert(covers_every_backend(kRows, &Row::backend), "one row each");

int f(BackendKind k) {
  switch (k) {
    case BackendKind::Mpi:
      return 1;
    case BackendKind::Nccl:
      return 2;
  }
  return 0;
}
"""

SWITCH = "enumeration value 'Loopback' not handled in switch [-Werror=switch]"
TABLE = "static assertion failed: one row each"
failures = []


def expect(what, condition, detail=""):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)
        if detail:
            print("      " + str(detail).replace("\n", "\n      "))


def main():
    with tempfile.TemporaryDirectory() as scratch:
        doc = os.path.join(scratch, "architecture.md")
        with open(doc, "w", encoding="utf-8") as f:
            f.write(DOC)
        named = backend_recipe.recipe(doc)
        expect("the recipe's files, as rows or cases",
               named == {"core/backend_kind.cpp": "table", "launch/launch.cpp": "table",
                         "tune/export_plan.cpp": "switch"}, named)

        expect("the recipe kept: no line", backend_recipe.compare(named, {
            "core/backend_kind.cpp": [(3, TABLE)], "launch/launch.cpp": [(5, TABLE)],
            "tune/export_plan.cpp": [(9, SWITCH)]}) == [])
        lines = backend_recipe.compare(named, {
            "core/backend_kind.cpp": [(3, TABLE)], "launch/launch.cpp": [(5, SWITCH)],
            "launch/doctor_findings.cpp": [(7, SWITCH)]})
        expect("an unnamed file that refuses",
               any(x.startswith("launch/doctor_findings.cpp: refuses") for x in lines), lines)
        expect("a named file that builds",
               any(x.startswith("tune/export_plan.cpp: the recipe names it") for x in lines), lines)
        expect("a file named as a table that refuses as a switch",
               any(x.startswith("launch/launch.cpp: the recipe names it as a table") for x in lines), lines)
        expect("three lines", len(lines) == 3, lines)

        source = os.path.join(scratch, "table.cpp")
        with open(source, "w", encoding="utf-8") as f:
            f.write(SOURCE)
        backend_recipe.follow(source, [(6, TABLE), (10, SWITCH)], "Nccl")
        text = open(source, encoding="utf-8").read()
        expect("the new row after the last one, copied whole",
               '4}},\n    {BackendKind::Loopback, "n{cc}l", {3,\n' in text and "4}},\n}};" in text, text)
        expect("the new case beside the last one's",
               "    case BackendKind::Loopback:\n    case BackendKind::Nccl:\n" in text, text)
        try:
            backend_recipe.follow(source, [(1, "no matching function")], "Nccl")
            expect("an error the recipe does not speak of is refused", False)
        except backend_recipe.Unreadable as e:
            expect("an error the recipe does not speak of is refused", "says nothing" in str(e), e)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
