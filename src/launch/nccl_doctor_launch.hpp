#pragma once
// `commtune doctor` on the NCCL backend: the system checks, the job's ceiling and the pairwise map
// measured by NCCL workers (ncclSend/ncclRecv, under the same watchdog as a sweep's), then the
// findings from the map, ranked, on rank 0. Without a launcher, one worker per GPU of this node
// (or --ranks, with --emulate-nodes); under mpirun/srun, one supervisor per rank and, with several
// nodes, the first GPU of each node as its member.
#include "launch/doctor_launch.hpp"

namespace commtune {

int launch_nccl_doctor(const DoctorLaunch& launch);

}  // namespace commtune
