#!/usr/bin/env bash
# Installs what commtune needs to build and test on Debian/Ubuntu. Idempotent, never prompts:
# packages already present are left alone. CUDA and NCCL are not installed here: where they are
# (standard CUDA location), the build adds the NCCL backend on its own.
set -euo pipefail
packages=(build-essential cmake pkg-config git
          libopenmpi-dev openmpi-bin
          libcli11-dev nlohmann-json3-dev libhwloc-dev
          libgtest-dev
          clang libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer with ASan and UBSan (Debian 12: clang 14)
          clang-format  # tests/architecture/format_check.sh: the committed .clang-format holds
          python3   # the tuner's MPI tests and the bad-input corpus read JSON with it
          chromium  # tests/browser: the HTML report opened in headless Chromium (DevTools over a pipe)
          # scripts/cluster.sh, the emulated cluster of the `cluster` tests: namespaces, veth, tc;
          # Slurm (slurmctld, slurmd, srun --mpi=pmix: its pmix plugin loads libpmix from libpmix-dev)
          iproute2 util-linux slurmctld slurmd slurm-client munge libpmix-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
