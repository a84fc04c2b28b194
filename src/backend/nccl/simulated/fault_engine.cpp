#include "backend/nccl/simulated/fault_engine.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backend/nccl/line_channel.hpp"

namespace commtune {
namespace {

[[noreturn]] void hang_forever() {
  while (true) pause();
}

[[noreturn]] void crash() {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  raise(SIGSEGV);
  _exit(139);
}

class FaultEngine : public WorkerEngine {
 public:
  FaultEngine(std::unique_ptr<WorkerEngine> inner, FaultMode mode, int channel)
      : inner_(std::move(inner)), mode_(mode), channel_(channel) {}

  nlohmann::json probe() override { return inner_->probe(); }
  std::string unique_id() override { return inner_->unique_id(); }

  nlohmann::json init(const std::string& id, const CommConfig& config) override {
    if (mode_ == FaultMode::HangInit) hang_forever();
    if (mode_ == FaultMode::CrashInit) crash();
    return inner_->init(id, config);
  }

  void prepare(const CaseRequest& request) override {
    case_faults();
    inner_->prepare(request);
  }

  void split(const SplitRequest& request) override { inner_->split(request); }
  std::int64_t check() override { return inner_->check(); }
  ReplayedSteps replay(const StepsRequest& request) override { return inner_->replay(request); }

  TimedBatch time(std::size_t iterations, std::size_t block) override {
    if (mode_ == FaultMode::HangCase) hang_forever();
    return inner_->time(iterations, block);
  }

  // The pairwise map has no case: its round is where a case's faults fire.
  PairSamples pairwise(const PairwiseRequest& request) override {
    if (mode_ == FaultMode::HangCase) hang_forever();
    case_faults();
    return inner_->pairwise(request);
  }

  void release_case() override { inner_->release_case(); }

  void finish() override { inner_->finish(); }

 private:
  // The faults that fire where a case starts (its prepare step, or a pairwise round).
  void case_faults() {
    if (mode_ == FaultMode::CrashCase) crash();
    if (mode_ == FaultMode::ExitEarly) _exit(0);
    if (mode_ == FaultMode::Garbage) write_all(channel_, "\x01 this is not the protocol {{{\n");
    if (mode_ == FaultMode::ErrorCase && !fired_) {
      fired_ = true;
      throw BackendError(
          "simulated NCCL failure: unhandled cuda error (run with NCCL_DEBUG=INFO for details)");
    }
  }

  std::unique_ptr<WorkerEngine> inner_;
  FaultMode mode_;
  int channel_;
  bool fired_ = false;
};

}  // namespace

std::unique_ptr<WorkerEngine> with_worker_fault(std::unique_ptr<WorkerEngine> inner,
                                                const std::optional<TestFault>& fault, int rank,
                                                int channel) {
  if (!fault || !fault->applies_to(rank) || is_supervisor_fault(fault->mode)) return inner;
  return std::make_unique<FaultEngine>(std::move(inner), fault->mode, channel);
}

}  // namespace commtune
