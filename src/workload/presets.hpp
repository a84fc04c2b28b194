#pragma once
// `commtune workload --preset NAME`: one training step's collectives as a framework runs them with
// its documented defaults, from the model's size and the job's layout (docs/workload.md gives each
// formula and where it comes from):
// - ddp: PyTorch DistributedDataParallel's gradient buckets (a first bucket of 1 MiB, then --bucket
//   MiB, default 25), one all-reduce each;
// - zero1, zero2: DeepSpeed ZeRO stages 1 and 2: gradients reduce-scattered in buckets of
//   reduce_bucket_size (5e8 elements), the updated parameters all-gathered in shards of
//   allgather_bucket_size (5e8 elements);
// - zero3: DeepSpeed ZeRO stage 3: each layer's parameters all-gathered in the forward and again in
//   the backward pass, gradients reduce-scattered in buckets of whole layers up to 5e8 elements;
// - fsdp: PyTorch FSDP (FULL_SHARD, one unit per layer): all-gather per layer forward and backward,
//   reduce-scatter of each layer's gradients;
// - megatron-tp: Megatron-LM tensor parallelism: per layer two all-reduces forward and two backward
//   of micro-batch x sequence x hidden elements; with sequence parallelism all-gathers and
//   reduce-scatters instead.
// Impossible numbers are an InputError naming the flag.
#include <map>
#include <string>
#include <vector>

#include "workload/workload.hpp"

namespace commtune {

struct PresetRequest {
  std::string preset;                        // one of preset_names()
  std::map<std::string, std::string> flags;  // the flags given, as typed: {"--params", "8B"}
  bool sequence_parallel = false;            // megatron-tp's --sequence-parallel
};

// "ddp", "zero1", "zero2", "zero3", "fsdp", "megatron-tp".
const std::vector<std::string>& preset_names();
// The flags that take a value: "--params", "--layers", "--hidden", "--seq", "--micro-batch",
// "--dtype", "--tp", "--dp", "--bucket".
const std::vector<std::string>& preset_value_flags();

// The step of `request.preset`; a flag the preset needs and lacks, or one it does not use, is an
// InputError naming it, as is any number the preset cannot run with.
Workload make_preset_workload(const PresetRequest& request);

}  // namespace commtune
