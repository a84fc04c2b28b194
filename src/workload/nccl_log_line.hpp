#pragma once
// One line of an NCCL debug log (NCCL_DEBUG=INFO), as NCCL 2.18-2.29 write it (src/debug.cc):
//   [TIMESTAMP] HOST:PID:TID [CUDADEV] NCCL INFO MESSAGE
// (the timestamp only when NCCL_DEBUG_TIMESTAMP_LEVELS turns it on for INFO). Two messages are read:
// - the collective call (src/enqueue.cc, ncclEnqueueCheck, unchanged from 2.18 to 2.29 but for
//   count's %zi -> %zu in 2.22):
//   "%s: opCount %lx sendbuff %p recvbuff %p count %zu datatype %d op %d root %d comm %p
//    [nranks=%d] stream %p"
// - the end of a communicator's initialisation (src/init.cc, initTransportsRank's caller):
//   2.18-2.20 "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init COMPLETE"
//   2.21-2.22 the same led by "ncclCommInitRank" or "ncclCommSplit" (which adds "parent %p color %d
//             key %d" before commId)
//   2.23-2.29 led by the API's name (%s: ncclCommInitRank, ncclCommInitRankConfig, ncclCommSplit,
//             ...); a split has "parent %p [splitCount|childCount] %d color %d key %d" and no commId
// Everything else is another line. A line that carries either message's mark ("opCount ",
// "- Init COMPLETE") but does not parse whole (cut short, two threads' output run together) is
// malformed: the reader skips and counts it.
#include <cstdint>
#include <optional>
#include <string_view>

namespace commtune {

struct NcclCallLine {
  std::string_view function;  // NCCL's opName: "AllReduce", "AllGather", "Send", ...
  std::uint64_t count = 0;
  std::int64_t datatype = 0;  // ncclDataType_t
  std::int64_t op = 0;        // ncclRedOp_t
  std::uint64_t comm = 0;     // the communicator's address in its process
  int nranks = 0;
};

struct NcclInitLine {
  std::uint64_t comm = 0;
  int rank = 0;
  int nranks = 0;
  int cuda_dev = 0;
  std::optional<std::uint64_t> comm_id;     // commId (not on 2.23+ splits)
  std::optional<std::uint64_t> parent;      // a split's parent communicator
  std::optional<std::int64_t> split_count;  // splitCount / childCount (2.24+)
  std::optional<std::int64_t> color;        // a split's color
};

enum class NcclLineKind { Other, Call, Init, Malformed };

struct NcclLine {
  NcclLineKind kind = NcclLineKind::Other;
  std::string_view host;  // from the prefix (Call and Init)
  std::int64_t pid = 0;
  NcclCallLine call;
  NcclInitLine init;
};

NcclLine parse_nccl_line(std::string_view line);

}  // namespace commtune
