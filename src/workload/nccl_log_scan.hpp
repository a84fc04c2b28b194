#pragma once
// The streaming pass over NCCL debug logs: every line read once, in bounded memory, into the
// processes that wrote them (host and pid of the prefix: one file of NCCL_DEBUG_FILE each, or all
// of them mixed in one output), their communicators (one per init line, or per comm address when
// the log has no INIT lines) and each communicator's calls, run-length encoded (call_sequence).
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "workload/call_sequence.hpp"
#include "workload/nccl_log_line.hpp"

namespace commtune {

struct ScannedProcess {
  std::string host;
  std::int64_t pid = 0;
  std::string file;  // the input it was first seen in
};

// One communicator as one process (one of its devices) sees it.
struct ScannedComm {
  std::size_t process = 0;
  std::uint64_t address = 0;
  int nranks = 0;
  int rank = -1;      // from its init line; -1 without one
  int cuda_dev = -1;  // likewise
  std::string group;  // the same for every rank of the communicator (from its init line), else empty
  CallSequence calls;
};

struct NcclScan {
  std::vector<ScannedProcess> processes;
  std::vector<ScannedComm> comms;  // in order of their init (or first call) line
  CallKeys keys;
  std::map<std::string, std::uint64_t> not_measured;  // NCCL calls commtune does not measure, by name
  std::uint64_t skipped_lines = 0;
  std::uint64_t sum_like_ops = 0;  // ncclAvg or a PreMulSum op: measured as a sum
};

inline constexpr std::size_t kMaxLineBytes = 1 << 14;  // NCCL writes at most 1024 per line

class NcclLogScanner {
 public:
  // Reads one input to its end; `origin` names it in messages (the file's path). Throws
  // InputError for an input without a collective line, an unknown datatype or a communicator
  // whose nranks changes.
  void scan(std::istream& in, const std::string& origin);
  NcclScan finish() { return std::move(scan_); }

 private:
  void on_line(std::string_view text, const std::string& where, const std::string& origin);
  std::size_t process_of(std::string_view host, std::int64_t pid, const std::string& origin);
  void on_init(std::size_t process, const NcclInitLine& init);
  void on_call(std::size_t process, const NcclCallLine& call, const std::string& where);
  std::string group_of(std::size_t process, const NcclInitLine& init);

  NcclScan scan_;
  std::map<std::string, std::size_t> process_index_;                   // "host:pid"
  std::map<std::pair<std::size_t, std::uint64_t>, std::size_t> live_;  // (process, address) -> comm
  std::map<std::string, std::int64_t> splits_;                         // splits seen per parent group
  std::uint64_t calls_in_input_ = 0;
};

}  // namespace commtune
