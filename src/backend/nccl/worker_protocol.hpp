#pragma once
// The supervisor <-> worker protocol: one JSON object per line, both ways, on a socket the worker
// finds at fd 3 (its stdout and stderr stay free for NCCL's own logging). Requests:
// {"op": probe | unique_id | init | split | prepare | check | time | release | steps | pairwise | finish,
// ...};
// replies: {"ok": true, ...} or {"ok": false, "error": TEXT, "fatal": BOOL}.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"

namespace commtune {

inline constexpr int kWorkerChannelFd = 3;

// Per-communicator configuration passed to ncclCommInitRankConfig.
struct CommConfig {
  std::optional<int> min_ctas, max_ctas;
  std::string net_name;  // empty: NCCL decides
};

struct CaseRequest {
  Case spec;
  bool check = true;                // run once, verify, count wrong elements
  bool graph = false;               // time each batch as one CUDA graph (one batch-mean sample)
  std::uint64_t largest_bytes = 0;  // the sweep's largest size: graph mode keeps buffers that fit it
  double contend = 0;               // --contend: a compute load on this fraction of the GPU while timed
};

// CUDA events resolve about half a microsecond (cudaEventElapsedTime), coarse against a small
// collective's 7-12 us on NVLink: the supervisor times such cases in blocks.
inline constexpr double kCudaEventResolutionS = 0.5e-6;
inline constexpr std::size_t kMaxTimeBlock = 1000;

// The request {"op": "time", "iterations": k[, "block": b]}: k back-to-back iterations, timed one
// event per b of them (b = 1 when absent; k a multiple of b). Throws ProtocolError on a block
// outside 1..kMaxTimeBlock or one that does not divide k.
std::string time_request_line(std::size_t iterations, std::size_t block);
std::size_t time_block_of(const nlohmann::json& request);

// A worker's answer to {"op": "time", "iterations": k}: what one rank measured of k iterations.
struct TimedBatch {
  // Without a graph: each of the k iterations' seconds, or with a block b each block's seconds / b
  // (k / b values). With a graph, which can only be timed from outside: one value, the graph's
  // seconds / k.
  std::vector<double> seconds;
  // The timed loop's seconds on this rank, which nccl-tests divides by k: the k iterations from
  // end to end, or the graph.
  double loop_seconds = 0;
  // The worker's host thread over the whole timed batch (enqueue and wait): its CPU seconds and
  // wall seconds, for its share of the CPU (doctor/straggler_finding); absent where not measured.
  std::optional<double> cpu_seconds{}, wall_seconds{};
};

// {"op": "pairwise", ...}: this worker's part of one round of the pairwise map. With a peer, it
// exchanges with it (both directions at once, ncclSend + ncclRecv in one group): first the latency
// samples (8-byte exchanges), then the bandwidth samples; without one it sits the round out.
struct PairwiseRequest {
  int peer = -1;                 // the other rank of this worker's pair; -1: no pair this round
  std::size_t bytes = 1u << 20;  // bandwidth message, per direction
  int samples = 10;              // latency samples, then as many bandwidth samples
  int exchanges = 4;             // bandwidth exchanges per sample
  int latency_exchanges = 20;    // 8-byte exchanges per latency sample
};

// The answer: what this worker measured with its peer (both empty without one).
struct PairSamples {
  std::vector<double> gbps;        // GB/s per direction, one per sample
  std::vector<double> latency_us;  // one 8-byte exchange, us, one per sample
};

// {"op": "split", "groups": [...]}: after init, one communicator per group spec of the sweep other
// than world, split from the world one (ncclCommSplit: this worker's color, its rank as the key,
// so a group's ranks keep the job's order) and named by its spec; a case whose spec names it runs
// on it. `ranks` and `nodes` describe this worker's own group (the simulated engine models them).
struct GroupSplit {
  std::string name;         // GroupSpec::name()
  std::uint32_t color = 0;  // nccl-tests' color of this worker's rank
  std::vector<int> ranks;   // the job ranks of this worker's group, ascending
  int nodes = 1;            // the nodes under the group
};

struct SplitRequest {
  std::vector<GroupSplit> groups;
  int world_nodes = 1;  // the nodes under the world communicator
};

// {"op": "steps", ...}: a training step replayed (`commtune replay`): its calls in order, each a
// case (on its group spec's communicator) run `repeat` times in a row; `warmup` untimed steps, then
// `steps` timed ones, each from a barrier of the whole job.
struct StepCallRequest {
  Case spec;
  std::uint64_t repeat = 1;
};
struct StepsRequest {
  std::vector<StepCallRequest> calls;
  std::size_t steps = 1;
  std::size_t warmup = 0;
  double contend = 0;  // --contend, as for a case
};

// The answer: this worker's seconds of each timed step and of each call in it.
struct ReplayedSteps {
  std::vector<double> step_seconds;               // [step]
  std::vector<std::vector<double>> call_seconds;  // [call][step]
};

// A reply as read by the supervisor. A line that is not a reply throws ProtocolError.
struct WorkerReply {
  bool ok = false;
  std::string error;
  bool fatal = false;  // the worker's communicator is gone: stop using it
  nlohmann::json body;
};

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json to_json(const CommConfig& config);
CommConfig comm_config_from_json(const nlohmann::json& j);
nlohmann::json to_json(const CaseRequest& request);
CaseRequest case_request_from_json(const nlohmann::json& j);
nlohmann::json to_json(const SplitRequest& request);
// Throws ProtocolError on a split no worker can make (no name, a group of fewer than two ranks).
SplitRequest split_request_from_json(const nlohmann::json& j);
nlohmann::json to_json(const StepsRequest& request);
// Throws ProtocolError on a request no worker can run (no call, no step, a repeat of 0).
StepsRequest steps_request_from_json(const nlohmann::json& j);
nlohmann::json to_json(const ReplayedSteps& steps);
// Throws ProtocolError when the counts differ or a time is not a finite number >= 0.
ReplayedSteps replayed_steps_from_json(const nlohmann::json& j);
nlohmann::json to_json(const TimedBatch& batch);
TimedBatch timed_batch_from_json(const nlohmann::json& j);
nlohmann::json to_json(const PairwiseRequest& request);
// Throws ProtocolError on a request no worker can run (a peer below -1, no bytes, no samples).
PairwiseRequest pairwise_request_from_json(const nlohmann::json& j);
nlohmann::json to_json(const PairSamples& samples);
// Throws ProtocolError when a sample is not a finite positive number or the counts differ.
PairSamples pair_samples_from_json(const nlohmann::json& j);

// Text safe to show and to store in JSON: printable ASCII, the rest as '?', at most `limit` chars.
std::string printable(std::string_view text, std::size_t limit = 200);

std::string request_line(std::string_view op, nlohmann::json fields = nlohmann::json::object());
WorkerReply parse_reply(std::string_view line);
std::string ok_reply_line(nlohmann::json fields = nlohmann::json::object());
std::string error_reply_line(std::string_view error, bool fatal);

}  // namespace commtune
