#include "tuner_plugin/pick_recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tuner_plugin/tuner_rules.hpp"

namespace commtune::tuner {

std::pair<int, int> nccl_pick(const float* table, int num_algo, int num_proto) {
  std::pair<int, int> best{-1, -1};
  if (table == nullptr) return best;
  float best_cost = 0;
  for (int a = 0; a < num_algo; ++a)
    for (int p = 0; p < num_proto; ++p) {
      const float cost = table[static_cast<std::size_t>(a) * static_cast<std::size_t>(num_proto) +
                               static_cast<std::size_t>(p)];
      if (cost >= 0.0f && (best.first < 0 || cost < best_cost)) {
        best = {a, p};
        best_cost = cost;
      }
    }
  return best;
}

std::string record_line(int function, std::uint64_t bytes, std::pair<int, int> pick, std::uint64_t nnodes,
                        std::uint64_t nranks, int num_pipe_ops, int reg_buff) {
  const auto token = [](const char* t) { return std::string(t[0] == '?' ? "-1" : t); };
  return token(function_token(function)) + "," + std::to_string(bytes) + "," +
         token(algorithm_token(pick.first)) + "," + token(protocol_token(pick.second)) + ",-1," +
         std::to_string(nnodes) + "," + std::to_string(nranks) + "," + std::to_string(num_pipe_ops) + "," +
         std::to_string(reg_buff != 0 ? 1 : 0) + "\n";
}

PickRecorder::~PickRecorder() {
  if (fd_ >= 0) ::close(fd_);
}

bool PickRecorder::open(const std::string& path, std::string& error) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) {
    error = std::strerror(errno);
    return false;
  }
  return true;
}

bool PickRecorder::record(int function, std::uint64_t bytes, std::pair<int, int> pick, std::uint64_t nnodes,
                          std::uint64_t nranks, int num_pipe_ops, int reg_buff) {
  if (fd_ < 0) return true;
  const auto key = std::make_tuple(function, bytes, num_pipe_ops, reg_buff != 0 ? 1 : 0);
  std::lock_guard lock(mutex_);
  if (seen_.count(key) != 0) return true;
  if (seen_.size() == kMaxRecordedKeys) return false;
  seen_.insert(key);
  const std::string line = record_line(function, bytes, pick, nnodes, nranks, num_pipe_ops, reg_buff);
  ssize_t written = 0;
  do written = ::write(fd_, line.data(), line.size());
  while (written < 0 && errno == EINTR);
  return true;
}

}  // namespace commtune::tuner
