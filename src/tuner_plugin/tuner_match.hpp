#pragma once
// Which rule applies to one collective call, and what it does to NCCL's cost table.
// Pure logic over a cost table given as a flat float array (numAlgo x numProto, row-major).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tuner_plugin/tuner_rules.hpp"

namespace commtune::tuner {

struct CollQuery {
  int function = 0;
  std::uint64_t bytes = 0;
  int num_pipe_ops = 1;
  int reg_buff = 0;
  std::uint64_t nranks = 0, nnodes = 0;  // the communicator's
};

// Index of the first rule that matches, or -1.
int first_matching_rule(const std::vector<TunerRule>& rules, const CollQuery& q);

enum class Apply {
  nothing,      // the rule leaves algorithm, protocol and channels to NCCL
  applied,      // the cost table (and channels where the rule sets them) now carry the rule's choice
  unavailable,  // the rule's algorithm/protocol is -1 (or outside) in this table: NCCL's choice left alone
};

// Applies one rule: the chosen entry is set to 0 (NCCL takes the smallest entry >= 0); an entry
// NCCL marked -1 is never written. With only the algorithm (or only the protocol) set, NCCL's
// cheapest available protocol of that algorithm (algorithm for that protocol) is chosen.
// nChannels is written only when the rule sets channels and its choice was applied.
Apply apply_rule(const TunerRule& rule, float* table, int num_algo, int num_proto, int* nchannels);

}  // namespace commtune::tuner
