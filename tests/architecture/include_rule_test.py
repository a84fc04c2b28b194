#!/usr/bin/env python3
"""Proves that include_rule.py can fail: runs it on small synthetic trees written to a temporary
directory and checks its exit status and the lines it prints."""

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

CHECKER = Path(__file__).resolve().parent / "include_rule.py"

TABLE = """\
# Synthetic architecture

## Layers

| folder | what | may include |
|---|---|---|
| `core` | the base | - |
| `plan` | uses core | core |
| `plan/deep` | a sub-folder | core |
| `kernels` | device code | core |
| `main` | the entry point | plan, core |

## After the table

Text that is not part of the rule.
"""

failures = []


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def run(files, table=TABLE):
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        write(root, {"docs/architecture.md": table, **files})
        result = subprocess.run(
            [sys.executable, str(CHECKER), "--src", str(root / "src"), "--kernels",
             str(root / "kernels"), "--doc", str(root / "docs/architecture.md")],
            capture_output=True, text=True)
        return result.returncode, result.stdout.splitlines(), result.stderr


def expect(what, condition, detail):
    if not condition:
        failures.append(f"{what}: {detail}")


CLEAN = {
    "src/main.cpp": '#include "plan/plan.hpp"\n#include <vector>\n',
    "src/core/types.hpp": "#pragma once\n",
    "src/core/types.cpp": '#include "types.hpp"\n',
    "src/plan/plan.hpp": '#pragma once\n#include "core/types.hpp"\n',
    "src/plan/deep/step.hpp": '#pragma once\n#include "../../core/types.hpp"\n',
    "src/plan/CMakeLists.txt": '# include "not a source file"\n',
    "kernels/fill.hpp": '#pragma once\n#include "core/types.hpp"\n',
    "kernels/fill.cu": '#include "fill.hpp"\n',
}

# A tree that keeps the rule passes: same-folder, listed-folder and relative includes.
status, out, err = run(CLEAN)
expect("clean tree", status == 0 and out == [], f"exit {status}, output {out}, stderr {err!r}")

# One forbidden include: core may include nothing.
forbidden = dict(CLEAN)
forbidden["src/core/types.cpp"] = '#include "types.hpp"\n\n#include "plan/plan.hpp"\n'
status, out, err = run(forbidden)
line = 'src/core/types.cpp:3: includes "plan/plan.hpp" (folder plan), which folder core may not include'
expect("forbidden include", status == 1, f"exit {status}, expected 1 (stderr {err!r})")
expect("forbidden include", line in out, f"missing line {line!r} in {out}")
expect("forbidden include", len([o for o in out if "may not include" in o]) == 1,
       f"expected exactly one violation in {out}")

# A file is in the longest folder that contains it: plan/deep, whose row does not allow plan.
nested = dict(CLEAN)
nested["src/plan/deep/step.hpp"] = '#pragma once\n#include "plan/plan.hpp"\n'
status, out, err = run(nested)
line = ('src/plan/deep/step.hpp:2: includes "plan/plan.hpp" (folder plan), '
        "which folder plan/deep may not include")
expect("longest folder", status == 1 and line in out, f"exit {status}, output {out}")

# Kernels are the folder `kernels`; a source in no folder of the table fails too.
outside = dict(CLEAN)
outside["kernels/fill.cu"] = '#include "fill.hpp"\n#include "plan/plan.hpp"\n'
outside["src/stray/extra.hpp"] = "#pragma once\n"
status, out, err = run(outside)
expect("kernels", 'kernels/fill.cu:2: includes "plan/plan.hpp" (folder plan), which folder kernels '
       "may not include" in out, f"output {out}")
expect("no folder", "src/stray/extra.hpp: is in no folder of the Layers table" in out, f"output {out}")

# An include that names no file of the tree.
missing = dict(CLEAN)
missing["src/main.cpp"] = '#include "plan/nowhere.hpp"\n'
status, out, err = run(missing)
expect("unresolved", status == 1 and any('src/main.cpp:1: includes "plan/nowhere.hpp"' in o for o in out),
       f"exit {status}, output {out}")

# The table itself must have no cycle.
cyclic = TABLE.replace("| `core` | the base | - |", "| `core` | the base | main |")
status, out, err = run(CLEAN, cyclic)
expect("cycle", status == 1 and any("cycle" in o and "core" in o and "main" in o for o in out),
       f"exit {status}, output {out}")

# A table that names a folder the table does not have.
unknown = TABLE.replace("| `plan` | uses core | core |", "| `plan` | uses core | core, nowhere |")
status, out, err = run(CLEAN, unknown)
expect("unknown folder", status == 1 and any("nowhere" in o for o in out), f"exit {status}, output {out}")

# No table at all: exit 2 with a message.
status, out, err = run(CLEAN, "# No layers here\n")
expect("no table", status == 2 and "Layers" in err, f"exit {status}, stderr {err!r}")

for failure in failures:
    print(failure)
print(f"include_rule_test: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
