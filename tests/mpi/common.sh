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
# Names every TOKEN (an option, a key, a value, a path) in the one `commtune: error:` line of the last
# expect_exit's stderr: what the refusal is about, not how it is worded.
error_names() {
  local lines
  lines=$(grep -c '^commtune: error: ' "$WORK/err.txt" || true)
  [ "$lines" -eq 1 ] || die "wanted one 'commtune: error:' line, got $lines: $(cat "$WORK/err.txt")"
  local line token
  line=$(grep '^commtune: error: ' "$WORK/err.txt")
  for token in "$@"; do
    [[ "$line" == *"$token"* ]] || die "the error does not name '$token': $line"
  done
}
# table_agrees TABLE RESULTS: the table's figures are the results file's: its `# commtune sweep:` line
# counts the ranks, nodes, ranks per node and cases the results record, its `# Out of bounds values`
# footer the wrong elements summed over the cases, and every setting has its `# setting NAME` block.
table_agrees() {
  python3 - "$1" "$2" <<'PY' || die "the table $1 against $2"
import json, re, sys
table = open(sys.argv[1]).read().splitlines()
doc = json.load(open(sys.argv[2]))
layout = doc["provenance"]["layout"]
header = [l for l in table if l.startswith("# commtune sweep: ")]
assert len(header) == 1, header
want = [layout["nranks"], layout["nhosts"], layout["local_sizes"][0], len(doc["cases"])]
assert [int(n) for n in re.findall(r"\b\d+\b", header[0])] == want, (header[0], want)
footer = [l for l in table if l.startswith("# Out of bounds values : ")]
assert len(footer) == 1, footer
wrong = sum(max(c.get("wrong", 0), 0) for c in doc["cases"])
assert footer[0].split(":")[1].split()[0] == str(wrong), (footer[0], wrong)
blocks = {l.split()[2] for l in table if l.startswith("# setting ")}
assert {c["setting"] for c in doc["cases"]} <= blocks, blocks
PY
}
