#include "backend/nccl/worker/step_replay.hpp"

#include <memory>
#include <vector>

#include "backend/nccl/worker/cuda_handles.hpp"
#include "backend/nccl/worker/device_case.hpp"
#include "backend/nccl/worker/nccl_check.hpp"

namespace commtune {
namespace {

// One call: its buffers, made on its communicator, and how often it runs in a step.
struct ReplayCall {
  std::unique_ptr<DeviceCase> buffers;
  ncclComm_t comm = nullptr;
  std::uint64_t repeat = 1;
};

std::vector<ReplayCall> make_calls(const StepsRequest& request, const WorkerComms& comms, int rank,
                                   int nranks, cudaStream_t stream) {
  std::vector<ReplayCall> calls;
  for (const StepCallRequest& call : request.calls) {
    const GroupCommunicator* group = nullptr;
    if (!call.spec.group.is_world() && !(group = comms.group(call.spec.group.name())))
      throw BackendError("replay: no communicator was split for group spec '" + call.spec.group.name() + "'");
    calls.push_back(ReplayCall{.buffers = std::make_unique<DeviceCase>(call.spec, group ? group->rank : rank,
                                                                       group ? group->nranks : nranks),
                               .comm = group ? group->comm : comms.world(),
                               .repeat = call.repeat});
    calls.back().buffers->fill_for_check(stream);
  }
  return calls;
}

// One step on the stream: the job's barrier, then every call's repeats; `events` (when given) get
// a record after the barrier and after each call.
void enqueue_step(const std::vector<ReplayCall>& calls, const WorkerComms& comms, const DeviceBytes& barrier,
                  cudaStream_t stream, StreamWork& work, const EventPool* events, std::size_t first) {
  work.require_launched(
      "replay: barrier of the whole job",
      ncclAllReduce(barrier.get(), barrier.get(), 1, ncclUint8, ncclMax, comms.world(), stream));
  if (events) check_cuda(cudaEventRecord((*events)[first], stream), "cudaEventRecord", true);
  for (std::size_t c = 0; c < calls.size(); ++c) {
    for (std::uint64_t r = 0; r < calls[c].repeat; ++r)
      work.require_launched("replay: call " + std::to_string(c),
                            calls[c].buffers->launch(calls[c].comm, stream));
    if (events) check_cuda(cudaEventRecord((*events)[first + 1 + c], stream), "cudaEventRecord", true);
  }
}

}  // namespace

ReplayedSteps replay_steps(const StepsRequest& request, const WorkerComms& comms, int rank, int nranks,
                           cudaStream_t stream, StreamWork& work) {
  const std::vector<ReplayCall> calls = make_calls(request, comms, rank, nranks, stream);
  const DeviceBytes barrier(1);
  work.wait_for_stream("replay: buffers filled");
  const std::size_t per_step = calls.size() + 1;
  const EventPool events(per_step * request.steps);
  work.enqueue_then_drain_on_error([&] {
    for (std::size_t s = 0; s < request.warmup; ++s)
      enqueue_step(calls, comms, barrier, stream, work, nullptr, 0);
    for (std::size_t s = 0; s < request.steps; ++s)
      enqueue_step(calls, comms, barrier, stream, work, &events, s * per_step);
  });
  work.wait_for_stream("replayed steps");
  ReplayedSteps out{.step_seconds = {}, .call_seconds = std::vector<std::vector<double>>(calls.size())};
  for (std::size_t s = 0; s < request.steps; ++s) {
    const std::size_t first = s * per_step;
    out.step_seconds.push_back(events.seconds_between(first, first + calls.size()));
    for (std::size_t c = 0; c < calls.size(); ++c)
      out.call_seconds[c].push_back(events.seconds_between(first + c, first + c + 1));
  }
  return out;
}

}  // namespace commtune
