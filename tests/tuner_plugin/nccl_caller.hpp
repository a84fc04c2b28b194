#pragma once
// Calls commtune's tuner plugin the way NCCL does: dlopen, dlsym("ncclTunerPlugin_v5" / "_v6"),
// init per communicator with a logger, getCollInfo with a float[7][3] cost table cast to float**.
// The ABI is declared here again, independently of src/tuner_plugin, from NCCL's tuner_v5.h /
// tuner_v6.h, so a layout slip on either side shows up.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace commtune::testing {

extern "C" {
typedef int nccl_result;  // ncclResult_t
typedef void (*nccl_logger)(int level, unsigned long flags, const char* file, int line, const char* fmt, ...);
struct NcclTunerV5 {
  const char* name;
  nccl_result (*init)(void** ctx, std::uint64_t comm_id, std::size_t nranks, std::size_t nnodes,
                      nccl_logger logger, void* nvl_domain_info, void* constants);
  nccl_result (*getCollInfo)(void* ctx, int coll, std::size_t nbytes, int num_pipe_ops, float** cost_table,
                             int num_algo, int num_proto, int reg_buff, int* nchannels);
  nccl_result (*finalize)(void* ctx);
};
struct NcclTunerV6 {
  NcclTunerV5 v5;  // same members, same order
  nccl_result (*getChunkSize)(void* ctx, int coll, std::size_t nbytes, int algo, int proto, int nchannels,
                              std::size_t* chunk_size);
};
}

constexpr int kBroadcast = 0, kReduce = 1, kAllGather = 2, kReduceScatter = 3, kAllReduce = 4;  // ncclFunc_t
constexpr int kTree = 0, kRing = 1, kCollnetDirect = 2, kCollnetChain = 3, kNvls = 4, kNvlsTree = 5, kPat = 6;
constexpr int kLL = 0, kLL128 = 1, kSimple = 2;

// Messages the plugin gave NCCL's logger (level, text), from every context.
struct LoggedMessage {
  int level;
  std::string text;
};
std::vector<LoggedMessage> logged_messages();
void clear_logged_messages();
extern "C" void record_log(int level, unsigned long flags, const char* file, int line, const char* fmt, ...);

class LoadedPlugin {
 public:
  LoadedPlugin();  // dlopen of the built plugin (COMMTUNE_TUNER_PLUGIN_PATH); fails the test if absent
  ~LoadedPlugin();
  const NcclTunerV5* v5() const { return v5_; }
  const NcclTunerV6* v6() const { return v6_; }

 private:
  void* handle_ = nullptr;
  const NcclTunerV5* v5_ = nullptr;
  const NcclTunerV6* v6_ = nullptr;
};

// NCCL's cost table for one call: every entry available (a distinct positive cost) unless marked.
struct CostTable {
  float cost[7][3];
  CostTable();
  void mark_unavailable(int algo, int proto) { cost[algo][proto] = -1.0f; }
  // What NCCL would pick: the smallest entry >= 0 (first in table order on a tie).
  std::pair<int, int> pick() const;
  float** as_nccl_pointer() { return reinterpret_cast<float**>(cost); }
};

struct CallResult {
  std::pair<int, int> pick;
  int nchannels = 0;
  CostTable table;
};

// One getCollInfo call as NCCL makes it (nChannels arrives as 0).
CallResult call(const NcclTunerV5& tuner, void* ctx, int coll, std::size_t nbytes, CostTable table = {},
                int num_pipe_ops = 1, int reg_buff = 0);

// Writes `text` to a fresh file under the test's temporary directory and returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);

}  // namespace commtune::testing
