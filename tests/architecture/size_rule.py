#!/usr/bin/env python3
"""The size rule (docs/architecture.md): no source file of src/ or kernels/ over 300 lines, and no
function over 60 lines. A function is a definition that starts at the first column (a namespace
scope function or a member defined outside its class) and ends at the next closing brace in the
first column; in-class member bodies are counted with their class's file. Prints every breach.

    size_rule.py --root DIR        check DIR's src/ and kernels/
    size_rule.py --self-test       show that the checker finds a long file and a long function
"""
import argparse
import os
import re
import sys
import tempfile

MAX_FILE_LINES = 300
MAX_FUNCTION_LINES = 60
SOURCES = (".cpp", ".hpp", ".cu", ".h")
HEAD = re.compile(r"^[A-Za-z_][\w:<>,*&\s~\[\]]*\(")  # a return type or name, then a parameter list
NOT_FUNCTIONS = ("namespace", "struct", "class", "enum", "using", "typedef", "template", "extern", "#", "static_assert")


def functions(lines):
    """(first line number, length) of each first-column function definition."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if HEAD.match(line) and not line.startswith(NOT_FUNCTIONS) and not line.rstrip().endswith(";"):
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{"):
                k = j + (0 if lines[j].rstrip().endswith("}") else 1)
                while k < len(lines) and lines[k] != "}" and not lines[j].rstrip().endswith("}"):
                    k += 1
                yield i + 1, k - i + 1
                i = k + 1
                continue
        i += 1


def breaches(root):
    out = []
    for top in ("src", "kernels"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(folder, name)
                lines = open(path, encoding="utf-8").read().split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                rel = os.path.relpath(path, root)
                if len(lines) > MAX_FILE_LINES:
                    out.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE_LINES})")
                for first, length in functions(lines):
                    if length > MAX_FUNCTION_LINES:
                        out.append(f"{rel}:{first}: a function of {length} lines (at most {MAX_FUNCTION_LINES})")
    return out


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src", "a"))
        body = "\n".join(f"  x += {i};" for i in range(MAX_FUNCTION_LINES))
        with open(os.path.join(root, "src", "a", "long.cpp"), "w") as f:
            f.write("int short_one(int x) {\n  return x;\n}\n\nint long_one(int x) {\n" + body + "\n  return x;\n}\n")
        with open(os.path.join(root, "src", "a", "big.hpp"), "w") as f:
            f.write("\n".join("// line" for _ in range(MAX_FILE_LINES + 1)) + "\n")
        found = breaches(root)
        assert any("long.cpp:5: a function" in b for b in found), found
        assert not any("long.cpp:1:" in b for b in found), found
        assert any("big.hpp: 301 lines" in b for b in found), found
    print("the size rule finds a long file and a long function")
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    found = breaches(args.root)
    for b in found:
        print(b)
    print(f"{len(found)} breach(es) of the size rule")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
