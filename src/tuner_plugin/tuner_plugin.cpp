// The exported symbols NCCL looks up with dlsym: ncclTunerPlugin_v6 (NCCL 2.30) and
// ncclTunerPlugin_v5 (NCCL 2.28, 2.29). Every entry point catches everything: no exception
// crosses the C ABI, and getCollInfo never returns an error (in 2.28.9 that fails the collective).
#include <cstdlib>
#include <new>

#include "tuner_plugin/nccl_tuner_abi.hpp"
#include "tuner_plugin/tuner_context.hpp"

namespace {

using commtune::tuner::TunerContext;

commtune_nccl_result_t commtune_init(void** context, std::uint64_t, std::size_t nranks, std::size_t nnodes,
                                     commtune_nccl_logger_t logger, commtune_nccl_nvl_domain_info_v5_t*,
                                     commtune_nccl_tuner_constants_v5_t*) {
  if (context == nullptr) return commtuneNcclInvalidArgument;
  *context = nullptr;
  try {
    *context = new TunerContext(nranks, nnodes, logger, std::getenv(commtune::tuner::kConfigFileVariable),
                                std::getenv(commtune::tuner::kRecordFileVariable));
  } catch (...) {
    // Out of memory: no context, and getCollInfo then leaves NCCL's choices alone.
    *context = nullptr;
  }
  return commtuneNcclSuccess;
}

commtune_nccl_result_t commtune_get_coll_info(void* context, commtune_nccl_func_t coll, std::size_t bytes,
                                              int num_pipe_ops, float** cost_table, int num_algo,
                                              int num_proto, int reg_buff, int* nchannels) {
  if (context == nullptr) return commtuneNcclSuccess;
  try {
    // The table is float[num_algo][num_proto], passed as float**: it is one flat array.
    static_cast<TunerContext*>(context)->coll_info(coll, bytes, num_pipe_ops,
                                                   reinterpret_cast<float*>(cost_table), num_algo, num_proto,
                                                   reg_buff, nchannels);
  } catch (...) {
  }
  return commtuneNcclSuccess;
}

commtune_nccl_result_t commtune_finalize(void* context) {
  delete static_cast<TunerContext*>(context);
  return commtuneNcclSuccess;
}

}  // namespace

extern "C" {

extern __attribute__((visibility("default"))) const commtune_nccl_tuner_v6_t ncclTunerPlugin_v6 = {
    "commtune", commtune_init, commtune_get_coll_info, commtune_finalize, nullptr};

extern __attribute__((visibility("default"))) const commtune_nccl_tuner_v5_t ncclTunerPlugin_v5 = {
    "commtune", commtune_init, commtune_get_coll_info, commtune_finalize};

}  // extern "C"
