#include "backend/mpi/mpi_step_replay.hpp"

#include <map>
#include <memory>
#include <tuple>

#include "backend/mpi/host_collective.hpp"

namespace commtune {
namespace {

// What makes two calls share buffers: the same case on the same communicator.
using CaseKey = std::tuple<int, std::uint64_t, int, int, int, int, std::string>;

CaseKey key_of(const Case& c) {
  return {static_cast<int>(c.collective),
          c.bytes,
          static_cast<int>(c.dtype),
          static_cast<int>(c.op),
          c.root,
          static_cast<int>(c.placement),
          c.group.name()};
}

// One HostCollective per distinct case, and for each call the one it runs.
struct StepCollectives {
  std::map<CaseKey, std::unique_ptr<HostCollective>> by_case;
  std::vector<HostCollective*> of_call;
};

StepCollectives make_collectives(const std::vector<StepCall>& calls, const CommOf& comm_of) {
  StepCollectives made;
  for (const StepCall& call : calls) {
    auto& slot = made.by_case[key_of(call.spec)];
    if (!slot) slot = std::make_unique<HostCollective>(call.spec, comm_of(call.spec.group));
    made.of_call.push_back(slot.get());
  }
  return made;
}

// This rank's step: its seconds, then each call's (from the previous call's end to its own).
std::vector<double> one_step(const std::vector<StepCall>& calls, const StepCollectives& made,
                             MPI_Comm control) {
  std::vector<double> seconds(calls.size() + 1);
  MPI_Barrier(control);
  const double start = MPI_Wtime();
  double previous = start;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    for (std::uint64_t r = 0; r < calls[i].repeat; ++r) made.of_call[i]->run();
    const double now = MPI_Wtime();
    seconds[i + 1] = now - previous;
    previous = now;
  }
  seconds[0] = previous - start;
  return seconds;
}

}  // namespace

StepTimes replay_host_steps(const std::vector<StepCall>& calls, std::size_t steps, std::size_t warmup,
                            const CommOf& comm_of, MPI_Comm control) {
  const StepCollectives made = make_collectives(calls, comm_of);
  for (std::size_t s = 0; s < warmup; ++s) one_step(calls, made, control);
  const std::size_t width = calls.size() + 1;
  std::vector<double> mine;  // step-major: the step's seconds, then its calls'
  mine.reserve(steps * width);
  for (std::size_t s = 0; s < steps; ++s) {
    const std::vector<double> step = one_step(calls, made, control);
    mine.insert(mine.end(), step.begin(), step.end());
  }
  MPI_Allreduce(MPI_IN_PLACE, mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX, control);
  StepTimes times{.step_seconds = {}, .call_seconds = std::vector<std::vector<double>>(calls.size())};
  for (std::size_t s = 0; s < steps; ++s) {
    times.step_seconds.push_back(mine[s * width]);
    for (std::size_t i = 0; i < calls.size(); ++i) times.call_seconds[i].push_back(mine[s * width + 1 + i]);
  }
  return times;
}

}  // namespace commtune
