#include "backend/nccl/worker/pair_exchange.hpp"

#include <algorithm>

#include "backend/nccl/worker/cuda_handles.hpp"
#include "backend/nccl/worker/nccl_check.hpp"

namespace commtune {
namespace {

struct Pair {
  ncclComm_t comm;
  cudaStream_t stream;
  StreamWork& work;
  int peer;

  // One exchange: send and receive in one group, so both directions run at once.
  void enqueue_exchange(const DeviceBytes& send, const DeviceBytes& recv, std::size_t bytes) const {
    work.require_launched("ncclGroupStart", ncclGroupStart());
    const ncclResult_t sent = ncclSend(send.get(), bytes, ncclInt8, peer, comm, stream);
    const ncclResult_t received = ncclRecv(recv.get(), bytes, ncclInt8, peer, comm, stream);
    const ncclResult_t ended = ncclGroupEnd();  // always closes the group, whatever the calls in it returned
    work.require_launched("ncclSend to rank " + std::to_string(peer), sent);
    work.require_launched("ncclRecv from rank " + std::to_string(peer), received);
    work.require_launched("ncclGroupEnd (pairwise exchange)", ended);
  }

  double exchanges_seconds(const DeviceBytes& send, const DeviceBytes& recv, std::size_t bytes,
                           int count) const {
    EventPool events(2);
    work.enqueue_then_drain_on_error([&] {
      enqueue_exchange(send, recv, std::min<std::size_t>(bytes, 8));  // the barrier: the buffers' first bytes
      check_cuda(cudaEventRecord(events[0], stream), "cudaEventRecord", true);
      for (int k = 0; k < count; ++k) enqueue_exchange(send, recv, bytes);
      check_cuda(cudaEventRecord(events[1], stream), "cudaEventRecord", true);
    });
    work.wait_for_stream("pairwise exchange");
    return events.seconds_between(0, 1);
  }
};

}  // namespace

PairSamples measure_pair(const PairwiseRequest& r, ncclComm_t comm, cudaStream_t stream, StreamWork& work) {
  const Pair pair{comm, stream, work, r.peer};
  const PairBuffers buffers(r.bytes);
  pair.exchanges_seconds(buffers.send, buffers.recv, r.bytes, 1);
  PairSamples out;
  for (int s = 0; s < r.samples; ++s)
    out.latency_us.push_back(
        pair.exchanges_seconds(buffers.small_send, buffers.small_recv, 8, r.latency_exchanges) /
        r.latency_exchanges * 1e6);
  for (int s = 0; s < r.samples; ++s)
    out.gbps.push_back(static_cast<double>(r.bytes) * r.exchanges /
                       pair.exchanges_seconds(buffers.send, buffers.recv, r.bytes, r.exchanges) / 1e9);
  return out;
}

}  // namespace commtune
