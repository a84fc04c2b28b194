#!/usr/bin/env bash
# The tree is formatted by the committed .clang-format (Google style, 110 columns): every C++ and
# CUDA source of src/, kernels/ and tests/ as clang-format would leave it. Prints the files that
# are not; exit 77 (skipped) without clang-format.
set -euo pipefail
cd "${1:?usage: format_check.sh SOURCE_DIR}"
command -v clang-format > /dev/null || { echo "clang-format not installed (scripts/setup.sh installs it)"; exit 77; }
mapfile -t files < <(find src kernels tests -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \) | sort)
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf 'not formatted (clang-format -i FILE): %s\n' "${unformatted[@]}"
  exit 1
fi
echo "${#files[@]} files formatted"
