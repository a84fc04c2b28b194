#!/usr/bin/env bash
# An emulated cluster on one machine: N nodes (default 4), each a network namespace plus a UTS
# namespace (own hostname nI, own address on a private /24 that exists only inside these
# namespaces: a bridge in a namespace of its own, one veth per node, no route anywhere else).
# Runs COMMAND on node n1 and always tears everything down (daemons by pid, processes left in the
# nodes, namespaces, hosts files, the run directory), also when COMMAND fails or is interrupted.
#
#   scripts/cluster.sh [OPTIONS] [--] COMMAND [ARGS...]
#     --nodes N        nodes n1..nN (default 4, at most 16)
#     --slots S        ranks per node in the hostfile, CPUs per node for Slurm (default 2)
#     --slurm          also start munged, slurmctld (on n1) and one slurmd per node; srun and
#                      salloc then work inside COMMAND (SLURM_CONF is set); each node has
#                      2 GPUs as Slurm GRES (fake devices), so --gpus-per-task=1 sets
#                      CUDA_VISIBLE_DEVICES per task
#     --shape NODE=RATE  shape NODE (e.g. n4) to RATE (e.g. 100mbit) from the start (tc tbf)
#     --timeout S      COMMAND's limit in seconds (default 600); the clean-up still runs
#     --logs DIR       copy the daemons' logs to DIR at the end (DIR must not exist)
#   COMMAND's first word may be `mpirun` (becomes $CLUSTER_MPIRUN: the hostfile, the launch agent
#   instead of ssh, TCP over the nodes' interface) or `srun` (gets --mpi=pmix).
#   Inside COMMAND: CLUSTER_ID, CLUSTER_NODES ("n1 n2 ..."), CLUSTER_HOSTFILE, CLUSTER_IF (the
#   nodes' interface), CLUSTER_MPIRUN, CLUSTER_SUBNET, and OMPI_MCA_btl / btl_tcp_if_include /
#   oob_tcp_if_include / mpi_yield_when_idle (so srun and salloc ... mpirun use TCP too).
#
#   scripts/cluster.sh shape NODE RATE | unshape NODE     (inside COMMAND: re-shape a node)
#   scripts/cluster.sh shape-pair NODE NODE RATE | unshape-pair NODE NODE
#                                                 (inside COMMAND: only the route between two nodes,
#                                                 both directions, e.g. a bad cable between them)
#
# Exit: COMMAND's exit code; 77 when it cannot run here (not root, no namespaces, a package
# missing: scripts/setup.sh installs them), with the reason on stderr; 2 on a bad option.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "cluster: skipped: $*" >&2; exit 77; }
bad() { echo "cluster: error: $*" >&2; exit 2; }

subnet=10.250.77  # the nodes' /24; nothing outside the namespaces has it

# --- shaping a node: both ends of its link (its eth0, its port on the bridge) ------------------
shape_node() {  # ID NODE RATE
  local id=$1 node=$2 rate=$3 i=${2#n}
  ip netns exec "$id-$node" tc qdisc replace dev eth0 root tbf rate "$rate" burst 32kbit latency 400ms
  ip netns exec "$id-br" tc qdisc replace dev "p$i" root tbf rate "$rate" burst 32kbit latency 400ms
}
unshape_node() {  # ID NODE
  local id=$1 node=$2 i=${2#n}
  ip netns exec "$id-$node" tc qdisc del dev eth0 root 2>/dev/null || true
  ip netns exec "$id-br" tc qdisc del dev "p$i" root 2>/dev/null || true
}
# Only the traffic between two nodes: on each one's eth0 an htb qdisc with no default class (what no
# filter picks leaves unshaped) and one class at RATE, which a u32 filter gives what goes to the other
# node's address.
shape_pair_end() {  # ID NODE OTHER RATE
  local id=$1 node=$2 other=${3#n} rate=$4
  ip netns exec "$id-$node" tc qdisc replace dev eth0 root handle 1: htb r2q 1000
  ip netns exec "$id-$node" tc class replace dev eth0 parent 1: classid 1:30 htb rate "$rate" burst 32kbit
  ip netns exec "$id-$node" tc filter replace dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$subnet.$other/32" flowid 1:30
}
check_node_name() { [[ $1 =~ ^n[1-9][0-9]?$ ]] || bad "not a node name: '$1' (n1, n2, ...)"; }
check_rate() { [[ $1 =~ ^[1-9][0-9]*(kbit|mbit|gbit)$ ]] || bad "not a rate: '$1' (e.g. 100mbit)"; }

case "${1:-}" in
  shape | unshape)
    [ -n "${CLUSTER_ID:-}" ] || bad "$1: only inside a cluster (CLUSTER_ID is not set)"
    check_node_name "${2:-}"
    if [ "$1" = shape ]; then check_rate "${3:-}"; shape_node "$CLUSTER_ID" "$2" "$3"; else unshape_node "$CLUSTER_ID" "$2"; fi
    exit 0 ;;
  shape-pair | unshape-pair)
    [ -n "${CLUSTER_ID:-}" ] || bad "$1: only inside a cluster (CLUSTER_ID is not set)"
    check_node_name "${2:-}"
    check_node_name "${3:-}"
    [ "$2" != "$3" ] || bad "$1: two different nodes, got '$2' twice"
    if [ "$1" = shape-pair ]; then
      check_rate "${4:-}"
      shape_pair_end "$CLUSTER_ID" "$2" "$3" "$4"
      shape_pair_end "$CLUSTER_ID" "$3" "$2" "$4"
    else
      unshape_node "$CLUSTER_ID" "$2"
      unshape_node "$CLUSTER_ID" "$3"
    fi
    exit 0 ;;
esac

# --- options ------------------------------------------------------------------------------------
nodes=4 slots=2 slurm=0 timeout_s=600 logs="" shapes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=${2:-}; shift 2 ;;
    --slots) slots=${2:-}; shift 2 ;;
    --slurm) slurm=1; shift ;;
    --shape) shapes+=("${2:-}"); shift 2 ;;
    --timeout) timeout_s=${2:-}; shift 2 ;;
    --logs) logs=${2:-}; shift 2 ;;
    --) shift; break ;;
    -*) bad "unknown option '$1' (see the top of $0)" ;;
    *) break ;;
  esac
done
[[ $nodes =~ ^[0-9]+$ ]] && [ "$nodes" -ge 1 ] && [ "$nodes" -le 16 ] || bad "--nodes: 1 to 16, got '$nodes'"
[[ $slots =~ ^[0-9]+$ ]] && [ "$slots" -ge 1 ] && [ "$slots" -le 64 ] || bad "--slots: 1 to 64, got '$slots'"
[[ $timeout_s =~ ^[0-9]+$ ]] && [ "$timeout_s" -ge 1 ] || bad "--timeout: whole seconds, got '$timeout_s'"
for s in "${shapes[@]}"; do
  [[ $s == *=* ]] || bad "--shape: NODE=RATE, got '$s'"
  n=${s%%=*}
  check_node_name "$n"
  check_rate "${s#*=}"
  [ "${n#n}" -le "$nodes" ] || bad "--shape: there is no node $n"
done
[ -z "$logs" ] || [ ! -e "$logs" ] || bad "--logs: $logs exists (never overwritten)"
[ $# -gt 0 ] || bad "no command (usage at the top of $0)"

# --- can it run here? ---------------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || skip "needs root (network and UTS namespaces, veth, tc)"
needed=(ip nsenter unshare mount mpirun timeout)
[ ${#shapes[@]} -eq 0 ] || needed+=(tc)
[ "$slurm" -eq 0 ] || needed+=(munged slurmctld slurmd srun salloc sinfo setpriv mknod)
for tool in "${needed[@]}"; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (scripts/setup.sh installs it)"
done
[ "$slurm" -eq 0 ] || getent passwd munge > /dev/null || skip "no munge user (the munge package creates it)"
[ "$slurm" -eq 0 ] || [ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] || [ -n "$(find /usr/lib -name mpi_pmix.so -print -quit 2>/dev/null)" ] ||
  skip "Slurm's pmix plugin is not installed"
unshare --net --uts true 2> /dev/null || skip "cannot create network and UTS namespaces here"

# --- the run's own names: every namespace, file and directory carries this run's id ---------------
run=$(mktemp -d /tmp/commtune-cluster.XXXXXX)
chmod 711 "$run"  # munged (as the munge user) must reach its directory inside
id=ct${run##*.}   # e.g. ctA1b2C3: unique while this run exists
node_names=()
for i in $(seq 1 "$nodes"); do node_names+=("n$i"); done
pids=()  # daemons, started last first killed
mounted=()

teardown() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  local p
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill -TERM "${pids[k]}" 2> /dev/null; done
  for _ in $(seq 50); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2> /dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2> /dev/null; done
  for name in "${node_names[@]}" br; do  # anything still running in a node (ranks, orted, steps)
    [ -e "/run/netns/$id-$name" ] || continue
    for p in $(ip netns pids "$id-$name" 2> /dev/null); do kill -KILL "$p" 2> /dev/null; done
  done
  for name in "${node_names[@]}" br; do
    [ -e "/run/netns/$id-$name" ] && ip netns del "$id-$name"
    rm -rf "/etc/netns/$id-$name"
  done
  for m in "${mounted[@]}"; do umount "$m" 2> /dev/null; done
  if [ -n "$logs" ] && [ -d "$run/logs" ]; then cp -r "$run/logs" "$logs"; fi
  rm -rf "$run"
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo "cluster: $id: $nodes nodes, $slots slots each$([ "$slurm" -eq 1 ] && echo ", Slurm")" >&2

# --- nodes ----------------------------------------------------------------------------------------
mkdir -p "$run/uts" "$run/logs"
ip netns add "$id-br"
ip -n "$id-br" link set lo up
ip -n "$id-br" link add br0 type bridge
ip -n "$id-br" link set br0 up
hosts="127.0.0.1 localhost"$'\n'
for i in $(seq 1 "$nodes"); do hosts+="$subnet.$i n$i"$'\n'; done
for i in $(seq 1 "$nodes"); do
  ns=$id-n$i
  ip netns add "$ns"
  ip link add eth0 netns "$ns" type veth peer name "p$i" netns "$id-br"
  ip -n "$id-br" link set "p$i" master br0 up
  ip -n "$ns" addr add "$subnet.$i/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  mkdir -p "/etc/netns/$ns"
  printf '%s' "$hosts" > "/etc/netns/$ns/hosts"
  echo "# no name server: nothing leaves the emulated cluster" > "/etc/netns/$ns/resolv.conf"
  touch "$run/uts/n$i"
  unshare --uts="$run/uts/n$i" hostname "n$i"
  mounted+=("$run/uts/n$i")
done
for s in "${shapes[@]}"; do shape_node "$id" "${s%%=*}" "${s#*=}"; done
for i in $(seq 1 "$nodes"); do echo "n$i slots=$slots"; done > "$run/hostfile"

# A daemon on node I that needs the host's /sys (slurmd's cgroups): the node's network and
# hostname, a private mount namespace with the node's hosts file over /etc/hosts.
start_daemon() {  # I LOG COMMAND...
  local i=$1 log=$2; shift 2
  nsenter --net="/run/netns/$id-n$i" --uts="$run/uts/n$i" unshare --mount --propagation slave \
    /bin/sh -c 'mount --bind "$0" /etc/hosts && mount --bind "$1" /etc/resolv.conf && shift && exec "$@"' \
    "/etc/netns/$id-n$i/hosts" "/etc/netns/$id-n$i/resolv.conf" "$@" > "$log" 2>&1 &
  pids+=($!)
}

# --- Slurm ----------------------------------------------------------------------------------------
slurm_env=()
if [ "$slurm" -eq 1 ]; then
  mkdir -p "$run/munge" "$run/slurm/state" "$run/dev"
  head -c 1024 /dev/urandom > "$run/munge/munge.key"
  chown -R munge:munge "$run/munge"
  chmod 711 "$run/munge"  # the socket is reached by the daemons (root) only
  chmod 400 "$run/munge/munge.key"
  setpriv --reuid munge --regid munge --init-groups munged --foreground --force --socket="$run/munge/socket" \
    --key-file="$run/munge/munge.key" --pid-file="$run/munge/munged.pid" --log-file="$run/munge/munged.log" \
    --seed-file="$run/munge/seed" > "$run/logs/munged.out" 2>&1 &
  pids+=($!)
  mknod "$run/dev/gpu0" c 1 3  # fake GPUs for Slurm's GRES: character devices that are /dev/null
  mknod "$run/dev/gpu1" c 1 3
  {
    echo "ClusterName=$id"
    echo "SlurmctldHost=n1($subnet.1)"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$run/munge/socket"
    echo "StateSaveLocation=$run/slurm/state"
    echo "SlurmdSpoolDir=$run/slurm/spool-%n"
    echo "SlurmctldPidFile=$run/slurm/slurmctld.pid"
    echo "SlurmdPidFile=$run/slurm/slurmd-%n.pid"
    echo "SlurmctldLogFile=$run/logs/slurmctld.log"
    echo "SlurmdLogFile=$run/logs/slurmd-%n.log"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "SchedulerType=sched/builtin"
    echo "MpiDefault=pmix"
    echo "SlurmdParameters=config_overrides"
    echo "ReturnToService=2"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "GresTypes=gpu"
    echo "KillWait=5"
    echo "InactiveLimit=0"
    for i in $(seq 1 "$nodes"); do echo "NodeName=n$i NodeAddr=$subnet.$i CPUs=$slots Gres=gpu:2 State=UNKNOWN"; done
    echo "PartitionName=emulated Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } > "$run/slurm/slurm.conf"
  for i in $(seq 1 "$nodes"); do  # every node its own config directory: PMIx directories must not collide
    conf=$run/slurm/conf-n$i
    mkdir -p "$conf" "$run/slurm/pmix-n$i"
    cp "$run/slurm/slurm.conf" "$conf/slurm.conf"
    echo "AutoDetect=off" > "$conf/gres.conf"
    echo "Name=gpu File=$run/dev/gpu[0-1]" >> "$conf/gres.conf"
    echo "PMIxCliTmpDirBase=$run/slurm/pmix-n$i" > "$conf/mpi.conf"
  done
  for _ in $(seq 100); do [ -S "$run/munge/socket" ] && break; sleep 0.05; done
  [ -S "$run/munge/socket" ] || { cat "$run/munge/munged.log" "$run/logs/munged.out" >&2; echo "cluster: munged did not start" >&2; exit 1; }
  start_daemon 1 "$run/logs/slurmctld.out" env SLURM_CONF="$run/slurm/conf-n1/slurm.conf" slurmctld -D -i
  for i in $(seq 1 "$nodes"); do
    start_daemon "$i" "$run/logs/slurmd-n$i.out" env SLURM_CONF="$run/slurm/conf-n$i/slurm.conf" slurmd -D -N "n$i"
  done
  slurm_env=(SLURM_CONF="$run/slurm/conf-n1/slurm.conf")
fi

# COMMAND on node 1: its network, hostname and hosts file (ip netns exec binds /etc/netns/NS/*).
mpirun_line="mpirun --hostfile $run/hostfile --mca plm_rsh_agent $here/cluster-agent.sh --mca plm_rsh_no_tree_spawn 1"
on_node1=(nsenter --uts="$run/uts/n1" ip netns exec "$id-n1" env "${slurm_env[@]}" CLUSTER_ID="$id"
  CLUSTER_NODES="${node_names[*]}" CLUSTER_HOSTFILE="$run/hostfile" CLUSTER_IF=eth0 CLUSTER_SUBNET="$subnet.0/24"
  CLUSTER_RUN_DIR="$run" CLUSTER_MPIRUN="$mpirun_line" OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=eth0
  OMPI_MCA_oob_tcp_if_include=eth0 OMPI_MCA_mpi_yield_when_idle=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)

if [ "$slurm" -eq 1 ]; then
  ready=0 deadline=$((SECONDS + 30))
  while [ "$SECONDS" -lt "$deadline" ]; do
    idle=$(timeout 3 "${on_node1[@]}" sinfo -h -N -t idle -o %N 2> /dev/null | sort -u | wc -l) || idle=0
    [ "$idle" -ge "$nodes" ] && { ready=1; break; }
    sleep 0.1
  done
  if [ "$ready" -ne 1 ]; then
    echo "cluster: Slurm did not come up with $nodes idle nodes; its logs:" >&2
    tail -n 20 "$run"/logs/* >&2
    exit 1
  fi
fi

command=("$@")
case "${command[0]}" in
  mpirun) read -r -a expanded <<< "$mpirun_line"; command=("${expanded[@]}" "${command[@]:1}") ;;
  srun) command=(srun --mpi=pmix "${command[@]:1}") ;;
esac
# In the background, so that a signal to this script runs the clean-up at once. In a session of
# its own, like the daemons that mpirun starts on the other nodes (orted --daemonize): the
# scheduler's autogroups then treat every node's ranks alike (in this script's session, n1's
# ranks would share one CPU share with everything else started from the caller's terminal).
timeout --kill-after=10 "$timeout_s" setsid "${on_node1[@]}" "${command[@]}" &
pids+=($!)
status=0
wait "${pids[-1]}" || status=$?
[ "$status" -ne 124 ] || echo "cluster: the command ran past --timeout $timeout_s s" >&2
exit "$status"
