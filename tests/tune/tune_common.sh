# Shared by the tuner's MPI tests: $1 is the commtune binary; COMMTUNE_MPIRUN and
# COMMTUNE_SOURCE_DIR come from ctest (tests/CMakeLists.txt).
set -euo pipefail
COMMTUNE=$1
SRC=${COMMTUNE_SOURCE_DIR:?}
read -r -a MPIRUN <<< "${COMMTUNE_MPIRUN:-mpirun --oversubscribe}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
say() { echo "== $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
# json_get FILE PYTHON-EXPRESSION-ON-d: prints the expression's value.
json_get() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
