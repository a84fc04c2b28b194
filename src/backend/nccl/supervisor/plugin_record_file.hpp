#pragma once
// The record commtune's tuner plugin appends in record mode (src/tuner_plugin/pick_recorder.hpp),
// one line per distinct call of a communicator:
//   collective,bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff
// read by the supervisor after each case of the default setting. The record is the plugin's, not
// the user's, but it is still read as untrusted input: a missing, empty, oversized or malformed
// record only means "not recorded (why)" for the cases it should have covered, never a failed case.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/types.hpp"
#include "results/nccl_choice.hpp"

namespace commtune {

inline constexpr std::size_t kMaxRecordLine = 256;
inline constexpr std::uint64_t kMaxRecordBytes = std::uint64_t{16} << 20;

struct RecordLine {
  std::string collective;  // the plugin's tokens: broadcast, reduce, allgather, reducescatter, allreduce
  std::uint64_t bytes =
      0;              // NCCL's nBytes: for allgather and reducescatter the whole buffer, as commtune's size
  NcclChoice choice;  // not recorded when the cost table had no entry available ("-1,-1")
};

// One line, without its newline; nothing, and `error`, when it is not a record line.
std::optional<RecordLine> parse_record_line(std::string_view line, std::string& error);

// Reads a record file as it grows: what was appended since the last call, whole lines only.
class PluginRecordFile {
 public:
  explicit PluginRecordFile(std::string path) : path_(std::move(path)) {}
  // What NCCL chose for this collective at this size, from all lines recorded so far.
  NcclChoice choice_for(Collective collective, std::uint64_t bytes);

 private:
  void read_appended();
  void take_lines();

  std::string path_;
  std::uint64_t offset_ = 0;
  std::string pending_;  // an unfinished last line
  std::size_t lines_ = 0;
  std::map<std::pair<std::string, std::uint64_t>, NcclChoice> picks_;  // the first line per key wins
  std::string damage_;   // why the record cannot be trusted any more (malformed, too large, unreadable)
  std::string missing_;  // why there is no record (yet)
};

}  // namespace commtune
