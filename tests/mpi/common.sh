# Shared by the MPI integration tests. $1 of each test is the commtune binary.
set -euo pipefail
COMMTUNE=$1
CHECK=$(dirname "$COMMTUNE")/tests/results_check
read -r -a MPIRUN <<< "${COMMTUNE_MPIRUN:-mpirun --oversubscribe}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
say() { echo "== $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
# Runs a command that must exit with the given code.
expect_exit() {
  local want=$1; shift
  set +e; "$@" > "$WORK/out.txt" 2> "$WORK/err.txt"; local got=$?; set -e
  [ "$got" -eq "$want" ] || { cat "$WORK/out.txt" "$WORK/err.txt"; die "exit $got, wanted $want: $*"; }
}
