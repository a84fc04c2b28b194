#pragma once
// The variables of the simulated machine, which only the test build's simulated engine reads:
// how many GPUs the machine has and which a process sees, slow links and ranks, the timings' spread, a rank's
// share of the CPU, the network rate between nodes.
#include <string>
#include <vector>

namespace commtune {

// A variable's value; empty when unset.
std::string simulated_variable(const char* name);

// How many GPUs the simulated machine has: COMMTUNE_SIMULATED_GPUS (1 to 8), else
// kSimulatedGpuCount.
int simulated_gpu_count();

// The simulated machine's GPUs that this process sees, as CUDA numbers them: all of them, or
// those CUDA_VISIBLE_DEVICES lists, in its order, up to the first entry that is not one of them.
std::vector<int> simulated_visible_gpus();

// Whether rank `a` or `b` is listed in `list` ("A,B"), or the pair ("A-B,C-D").
bool listed_pair(const std::string& list, int a, int b);

// The pair's link: a quarter where COMMTUNE_SIMULATED_SLOW_LINK lists the pair or
// COMMTUNE_SIMULATED_SLOW_RANK either rank; else 1.
double slow_factor(int a, int b);

// The relative spread of the modelled timings: 1%, or COMMTUNE_SIMULATED_JITTER (above 0,
// below 1) for tests that need noisier cases (racing's undecided rounds).
double timing_jitter();

// Whether the engine spends its modelled times on the clock (COMMTUNE_SIMULATED_REAL_TIME=1): each
// timed batch, data check and replayed step sleeps for what it reports, a communicator's init for
// the NCCL cost model's setting start and a case's preparation for its case overhead, so that a
// sweep's wall time follows the model and what --budget's estimate gets wrong is the plan's shape
// (rounds, survivors, samples per case), which scripts/bench-budget-simulated.sh holds against
// the clock. Off by default: the tests want answers at once.
bool spends_modelled_time();

// The host thread's share of the CPU while it times a batch: 0.95, or what
// COMMTUNE_SIMULATED_CPU_SHARE ("RANK:SHARE,...", shares above 0 up to 1) gives this rank, for
// tests of the straggler finding (a worker starved of the CPU).
double host_cpu_share(int rank);

// The network rate under a communicator of `ranks` over `nodes` nodes, in bytes per second:
// unlimited within one node or without COMMTUNE_SIMULATED_NODE_LINK_GBPS; a quarter of it with a
// rank of COMMTUNE_SIMULATED_SLOW_RANK among them (its node's link is slow).
double network_bytes_per_s(const std::vector<int>& ranks, int nodes);

}  // namespace commtune
