#pragma once
// Record mode: with COMMTUNE_TUNER_RECORD=FILE the plugin changes nothing and appends what NCCL's
// cost table picks, once per distinct (collective, size, numPipeOps, regBuff) per communicator:
//   collective,bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff
// (channels -1: NCCL decides them after the tuner, so the plugin cannot know them). Each line is
// one append-mode write, so several communicators and processes can share the file.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

namespace commtune::tuner {

inline constexpr const char* kRecordFileVariable = "COMMTUNE_TUNER_RECORD";
inline constexpr std::size_t kMaxRecordedKeys = 65536;

// NCCL's pick in a cost table (numAlgo x numProto, flat): the smallest entry >= 0, the first in
// table order on a tie, {-1, -1} when every entry is unavailable.
std::pair<int, int> nccl_pick(const float* table, int num_algo, int num_proto);

// One record line, newline included.
std::string record_line(int function, std::uint64_t bytes, std::pair<int, int> pick, std::uint64_t nnodes,
                        std::uint64_t nranks, int num_pipe_ops, int reg_buff);

class PickRecorder {
 public:
  PickRecorder() = default;
  PickRecorder(const PickRecorder&) = delete;
  PickRecorder& operator=(const PickRecorder&) = delete;
  ~PickRecorder();

  // Opens FILE for appending (created 0644, never through a symbolic link); false and `error`
  // when it cannot.
  bool open(const std::string& path, std::string& error);
  // Records one call unless its key was recorded already; false once kMaxRecordedKeys is reached.
  bool record(int function, std::uint64_t bytes, std::pair<int, int> pick, std::uint64_t nnodes,
              std::uint64_t nranks, int num_pipe_ops, int reg_buff);

 private:
  int fd_ = -1;
  std::mutex mutex_;  // a communicator used from several threads
  std::set<std::tuple<int, std::uint64_t, int, int>> seen_;
};

}  // namespace commtune::tuner
