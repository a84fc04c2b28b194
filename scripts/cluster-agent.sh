#!/bin/sh
# Open MPI's launch agent for scripts/cluster.sh, in place of ssh (--mca plm_rsh_agent): drops
# the leading options, takes the node's name (n1, n2, ...) and runs the rest, as ssh would, with
# /bin/sh -c inside that node's network and UTS namespaces with its hosts file. It knows the
# cluster from CLUSTER_ID and CLUSTER_RUN_DIR, which cluster.sh sets for mpirun.
set -eu
while [ $# -gt 0 ]; do
  case "$1" in
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "cluster-agent: usage: cluster-agent.sh [OPTIONS] NODE COMMAND..." >&2; exit 2; }
node=$1
shift
case "$node" in
  n[1-9] | n[1-9][0-9]) ;;
  *) echo "cluster-agent: not a node of the emulated cluster: '$node'" >&2; exit 2 ;;
esac
: "${CLUSTER_ID:?cluster-agent: CLUSTER_ID is not set (run it through scripts/cluster.sh)}"
: "${CLUSTER_RUN_DIR:?cluster-agent: CLUSTER_RUN_DIR is not set (run it through scripts/cluster.sh)}"
[ -e "/run/netns/$CLUSTER_ID-$node" ] || { echo "cluster-agent: no node $node in cluster $CLUSTER_ID" >&2; exit 2; }
exec nsenter --uts="$CLUSTER_RUN_DIR/uts/$node" ip netns exec "$CLUSTER_ID-$node" /bin/sh -c "$*"
