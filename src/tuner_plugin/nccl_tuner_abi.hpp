#pragma once
// The C ABI between NCCL and a tuner plugin, declared here because NCCL installs no tuner
// headers. Pinned against the NCCL source (docs/tuning.md, "commtune's tuner plugin"):
// - v5: NCCL 2.28 (src/include/plugin/tuner/tuner_v5.h at v2.28.9-1), symbol ncclTunerPlugin_v5.
// - v6: NCCL 2.30 (src/include/plugin/tuner/tuner_v6.h at v2.30.7-1), symbol ncclTunerPlugin_v6:
//   v5's members in the same order plus getChunkSize, which NCCL calls only when not null
//   (src/enqueue.cc at v2.30.7-1); init's domain-info and constants types are v5's.
// Only the layout matters: member order, types and the enum values below.
#include <cstddef>
#include <cstdint>

extern "C" {

typedef enum {
  commtuneNcclSuccess = 0,
  commtuneNcclSystemError = 2,
  commtuneNcclInternalError = 3,
  commtuneNcclInvalidArgument = 4,
} commtune_nccl_result_t;  // ncclResult_t: an int-sized enum, these values

typedef enum {
  commtuneNcclLogWarn = 2,
  commtuneNcclLogInfo = 3,
} commtune_nccl_log_level_t;  // ncclDebugLogLevel: NONE 0, VERSION 1, WARN 2, INFO 3, ABORT 4, TRACE 5

enum : unsigned long {
  commtuneNcclSubsysInit = 0x1,
  commtuneNcclSubsysTuning = 0x40,
};  // ncclDebugLogSubSys bits (NCCL_INIT, NCCL_TUNING)

// ncclDebugLogger_t: level, subsystem flags, file, line, printf format, arguments.
typedef void (*commtune_nccl_logger_t)(commtune_nccl_log_level_t level, unsigned long flags, const char* file,
                                       int line, const char* fmt, ...);

// ncclFunc_t values: Broadcast 0, Reduce 1, AllGather 2, ReduceScatter 3, AllReduce 4 (a plain enum,
// int-sized).
typedef int commtune_nccl_func_t;

typedef struct {
  int nNvlDomains;
  int minRanksPerNvlDomain;
  int maxRanksPerNvlDomain;
} commtune_nccl_nvl_domain_info_v5_t;

// ncclTunerConstants_v5_t: only passed through (never read or written by commtune's plugin).
typedef struct commtune_nccl_tuner_constants_v5 commtune_nccl_tuner_constants_v5_t;

typedef struct {
  const char* name;
  commtune_nccl_result_t (*init)(void** context, std::uint64_t commId, std::size_t nRanks, std::size_t nNodes,
                                 commtune_nccl_logger_t logFunction,
                                 commtune_nccl_nvl_domain_info_v5_t* nvlDomainInfo,
                                 commtune_nccl_tuner_constants_v5_t* constants);
  // collCostTable is float[numAlgo][numProto] cast to float**; -1 marks an unavailable entry.
  commtune_nccl_result_t (*getCollInfo)(void* context, commtune_nccl_func_t collType, std::size_t nBytes,
                                        int numPipeOps, float** collCostTable, int numAlgo, int numProto,
                                        int regBuff, int* nChannels);
  commtune_nccl_result_t (*finalize)(void* context);
} commtune_nccl_tuner_v5_t;

typedef struct {
  const char* name;
  commtune_nccl_result_t (*init)(void** context, std::uint64_t commId, std::size_t nRanks, std::size_t nNodes,
                                 commtune_nccl_logger_t logFunction,
                                 commtune_nccl_nvl_domain_info_v5_t* nvlDomainInfo,
                                 commtune_nccl_tuner_constants_v5_t* constants);
  commtune_nccl_result_t (*getCollInfo)(void* context, commtune_nccl_func_t collType, std::size_t nBytes,
                                        int numPipeOps, float** collCostTable, int numAlgo, int numProto,
                                        int regBuff, int* nChannels);
  commtune_nccl_result_t (*finalize)(void* context);
  // Optional (null: NCCL keeps its own chunk size).
  commtune_nccl_result_t (*getChunkSize)(void* context, commtune_nccl_func_t collType, std::size_t nBytes,
                                         int algo, int proto, int nChannels, std::size_t* chunkSize);
} commtune_nccl_tuner_v6_t;

}  // extern "C"

// The layout NCCL expects (LP64): a name pointer, then one function pointer per member.
static_assert(sizeof(commtune_nccl_result_t) == sizeof(int), "ncclResult_t is an int-sized enum");
static_assert(sizeof(commtune_nccl_log_level_t) == sizeof(int), "ncclDebugLogLevel is an int-sized enum");
static_assert(sizeof(commtune_nccl_tuner_v5_t) == 4 * sizeof(void*), "v5: name, init, getCollInfo, finalize");
static_assert(sizeof(commtune_nccl_tuner_v6_t) == 5 * sizeof(void*), "v6: v5's members, then getChunkSize");
static_assert(offsetof(commtune_nccl_tuner_v6_t, getCollInfo) ==
                      offsetof(commtune_nccl_tuner_v5_t, getCollInfo) &&
                  offsetof(commtune_nccl_tuner_v6_t, finalize) ==
                      offsetof(commtune_nccl_tuner_v5_t, finalize),
              "v6 starts with v5's members");
static_assert(sizeof(commtune_nccl_nvl_domain_info_v5_t) == 3 * sizeof(int),
              "ncclNvlDomainInfo_v5_t: three ints");

namespace commtune::tuner {

// NCCL's cost table indices (src/include/nccl_common.h / the example plugin's tuner.h).
inline constexpr int kNumAlgorithms = 7;  // TREE RING COLLNET_DIRECT COLLNET_CHAIN NVLS NVLS_TREE PAT
inline constexpr int kNumProtocols = 3;   // LL LL128 SIMPLE
inline constexpr int kNumFunctions = 5;   // Broadcast Reduce AllGather ReduceScatter AllReduce

}  // namespace commtune::tuner
