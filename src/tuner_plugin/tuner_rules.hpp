#pragma once
// commtune's tuner rules file: the columns of NCCL's example tuner plugin,
//   collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
// lowercase tokens, `#` comment lines, blank lines. commtune's meaning: -1 in algorithm,
// protocol or channels is NCCL's own choice; -1 in nNodes, nRanks, numPipeOps, regBuff matches
// anything; a size outside every rule is NCCL's own choice. Pure C++: no NCCL, no I/O besides
// the stream it is given, no exceptions out of parse_tuner_rules.
//
// A file is taken whole or not at all: one malformed line (unknown token, a number out of
// range, too many or too few columns, a line longer than kMaxLineLength, min above max, more
// than kMaxRules rules or more than kMaxFileBytes) rejects the file, and the plugin keeps NCCL's
// defaults. A half-read file (say, truncated while being written) must not half-apply.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace commtune::tuner {

inline constexpr std::size_t kMaxLineLength = 1024;
inline constexpr std::size_t kMaxRules = 65536;
inline constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;
inline constexpr int kMaxChannels = 1024;

struct TunerRule {
  int function = 0;                            // ncclFunc_t value
  std::uint64_t min_bytes = 0, max_bytes = 0;  // inclusive
  int algorithm = -1;                          // cost table row, -1: NCCL's choice
  int protocol = -1;                           // cost table column, -1: NCCL's choice
  int channels = -1;                           // -1: NCCL's choice
  std::int64_t nnodes = -1, nranks = -1;       // -1: any
  std::int64_t num_pipe_ops = -1;              // -1: any
  int reg_buff = -1;                           // -1: any, else 0 or 1
  std::size_t line = 0;                        // 1-based line number in the file
};

struct TunerRulesFile {
  bool ok = false;               // false: error says why, rules is empty
  std::vector<TunerRule> rules;  // in file order (the first match wins)
  std::string error;             // "line N: ..."
};

TunerRulesFile parse_tuner_rules(std::istream& in) noexcept;

// The plugin's messages name a function by NCCL's token ("?" when out of range).
const char* function_token(int index);  // "?" when out of range
const char* algorithm_token(int index);
const char* protocol_token(int index);

}  // namespace commtune::tuner
