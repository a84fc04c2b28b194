#!/usr/bin/env bash
# scripts/cluster.sh leaves nothing behind: after a failing command, and after SIGTERM while
# Slurm runs (the daemons by pid, the processes in the nodes, namespaces, hosts files, its run
# directory); and it refuses bad options with exit 2. Exit 77 where the cluster cannot run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cluster=(bash "$root/scripts/cluster.sh")
work=$(mktemp -d /tmp/commtune-cluster-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
die() { echo "FAIL: $*" >&2; exit 1; }
left_behind() {  # ID: what of cluster ID still exists
  local id=$1
  ls -d /run/netns/"$id"-* /etc/netns/"$id"-* /tmp/commtune-cluster."${id#ct}" 2> /dev/null || true
}

status=0
"${cluster[@]}" --nodes 0 -- true 2> "$work/err" || status=$?
[ "$status" -eq 2 ] && grep -qw -- "--nodes" "$work/err" || die "--nodes 0: exit $status, wanted 2 naming the option"
status=0
"${cluster[@]}" --shape n9=100mbit -- true 2> "$work/err" || status=$?
[ "$status" -eq 2 ] || die "--shape of a node that does not exist: exit $status, wanted 2"

echo "== a failing command: its exit code, and nothing left"
status=0
"${cluster[@]}" --nodes 2 -- sh -c 'echo "$CLUSTER_ID" > "$0"; hostname > "$0.host"; exit 3' "$work/id" || status=$?
[ "$status" -ne 77 ] || exit 77
[ "$status" -eq 3 ] || die "exit $status, wanted the command's 3"
[ "$(cat "$work/id.host")" = n1 ] || die "the command did not run on n1"
id=$(cat "$work/id")
[ -z "$(left_behind "$id")" ] || die "left behind: $(left_behind "$id")"

echo "== SIGTERM while Slurm runs: daemons and node processes gone, nothing left"
"${cluster[@]}" --nodes 2 --slurm -- sh -c 'echo "$CLUSTER_ID $CLUSTER_RUN_DIR" > "$0.tmp"; mv "$0.tmp" "$0"; sleep 120' "$work/slurm" &
pid=$!
for _ in $(seq 300); do [ -s "$work/slurm" ] && break; kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
if [ ! -s "$work/slurm" ]; then
  status=0; wait "$pid" || status=$?
  [ "$status" -eq 77 ] && exit 77
  die "the Slurm cluster did not come up (exit $status)"
fi
read -r id run < "$work/slurm"
daemons=$(cat "$run/munge/munged.pid" 2> /dev/null || true)
for node in n1 n2; do daemons+=" $(ip netns pids "$id-$node" | tr '\n' ' ')"; done
[ -n "$(echo $daemons)" ] || die "found no processes of the cluster"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 143 ] || die "exit $status after SIGTERM, wanted 143"
alive() {  # a zombie is dead: only its parent (maybe pid 1 of a container that never reaps) has to collect it
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2> /dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}
for p in $daemons; do ! alive "$p" || die "process $p ($(cat /proc/$p/comm 2> /dev/null)) survived"; done
[ -z "$(left_behind "$id")" ] || die "left behind: $(left_behind "$id")"
echo "cluster teardown checks: all passed"
