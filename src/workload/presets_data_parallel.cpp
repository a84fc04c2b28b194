// The data-parallel presets (docs/workload.md gives each formula and its source): PyTorch DDP,
// DeepSpeed ZeRO stages 1 to 3, PyTorch FSDP. Every collective runs on the data-parallel group.
#include <algorithm>

#include "core/errors.hpp"
#include "workload/preset_steps.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

std::string range_label(const char* what, std::uint64_t first, std::uint64_t count) {
  if (count == 1) return std::string(what) + " " + std::to_string(first);
  return std::string(what) + "s " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// Adds `total` elements cut into chunks of `chunk` (the last one the remainder), each padded to
// what the collective carries on the data-parallel group.
void add_chunks(StepBuilder& b, Collective c, std::uint64_t total, std::uint64_t chunk, const char* what,
                const std::string& blame) {
  const PresetInputs& in = b.inputs();
  const std::uint64_t elem = size_of(in.dtype);
  const auto bytes = [&](std::uint64_t elements) {
    return padded_bytes(elements * elem, c, in.dtype, in.dp);
  };
  const std::uint64_t full = total / chunk, rest = total % chunk;
  if (full > 0)
    b.add(c, bytes(chunk), data_parallel_group(in), in.dp, full, range_label(what, 0, full), blame);
  if (rest > 0) b.add(c, bytes(rest), data_parallel_group(in), in.dp, 1, range_label(what, full, 1), blame);
}

// The gathers of one layer's parameters in a pass, padded as FSDP and ZeRO-3 pad their flat shards.
void add_layer_gathers(StepBuilder& b, const char* pass) {
  const PresetInputs& in = b.inputs();
  const std::uint64_t bytes =
      padded_bytes(params_per_layer(in) * size_of(in.dtype), Collective::AllGather, in.dtype, in.dp);
  b.add(Collective::AllGather, bytes, data_parallel_group(in), in.dp, in.layers,
        std::string(pass) + ": each layer's parameters", "--params");
}

}  // namespace

// DDP's reducer: gradients in buckets in reverse parameter order, the first one closed at
// first_bucket_bytes (1 MiB), the others at bucket_cap_mb; a bucket closes once it holds at least
// its cap, so a bucket is the cap rounded up to a whole element. One all-reduce per bucket.
PresetStep ddp_step(const PresetInputs& in) {
  StepBuilder b(in);
  const std::uint64_t elem = size_of(in.dtype);
  const std::uint64_t total = params_per_rank(in);
  const auto elements_of = [&](std::uint64_t cap) { return (cap + elem - 1) / elem; };
  const std::uint64_t first = std::min(total, elements_of(kFirstBucketBytes));
  const std::uint64_t cap = elements_of(in.bucket_bytes);
  if ((total - first) / cap > static_cast<std::uint64_t>(kMaxWorkloadCount))
    throw InputError("--bucket: " + std::to_string((total - first) / cap) + " buckets a step, more than " +
                     std::to_string(kMaxWorkloadCount));
  b.add(Collective::AllReduce, first * elem, data_parallel_group(in), in.dp, 1, "bucket 0", "--params");
  const std::uint64_t full = (total - first) / cap, rest = (total - first) % cap;
  if (full > 0)
    b.add(Collective::AllReduce, cap * elem, data_parallel_group(in), in.dp, full,
          range_label("bucket", 1, full), "--bucket");
  if (rest > 0)
    b.add(Collective::AllReduce, rest * elem, data_parallel_group(in), in.dp, 1,
          range_label("bucket", full + 1, 1), "--bucket");
  b.step().defaults = {{"first_bucket_bytes", kFirstBucketBytes}, {"bucket_bytes", in.bucket_bytes}};
  b.step().notes.push_back(
      "buckets cut from the gradients as one run of elements; DDP keeps each parameter whole in one bucket, "
      "so "
      "real buckets end at parameter boundaries");
  return b.step();
}

// DeepSpeed ZeRO-1/2: gradients reduced in buckets of reduce_bucket_size elements onto each rank's
// partition (reduce_scatter: true), then the updated parameters all-gathered in shards: num_shards =
// max(1, partition x dp / allgather_bucket_size), each rank's partition cut into that many.
PresetStep zero12_step(const PresetInputs& in, int stage) {
  StepBuilder b(in);
  const std::uint64_t total = params_per_rank(in);
  add_chunks(b, Collective::ReduceScatter, total, kDeepSpeedBucketElements,
             stage == 1 ? "gradient bucket (after backward)" : "gradient bucket (during backward)",
             "--params");
  const auto dp = static_cast<std::uint64_t>(in.dp);
  const std::uint64_t partition = (total + dp - 1) / dp;
  const std::uint64_t shards = std::max<std::uint64_t>(1, partition * dp / kDeepSpeedBucketElements);
  const std::uint64_t shard = partition / shards, last = partition - (shards - 1) * shard;
  const std::uint64_t elem = size_of(in.dtype);
  const auto bytes = [&](std::uint64_t e) {
    return padded_bytes(e * dp * elem, Collective::AllGather, in.dtype, in.dp);
  };
  if (shards > 1 && last == shard) {
    b.add(Collective::AllGather, bytes(shard), data_parallel_group(in), in.dp, shards,
          range_label("parameter shard", 0, shards), "--params");
  } else {
    if (shards > 1)
      b.add(Collective::AllGather, bytes(shard), data_parallel_group(in), in.dp, shards - 1,
            range_label("parameter shard", 0, shards - 1), "--params");
    b.add(Collective::AllGather, bytes(last), data_parallel_group(in), in.dp, 1,
          range_label("parameter shard", shards - 1, 1), "--params");
  }
  b.step().defaults = {{"reduce_bucket_size", kDeepSpeedBucketElements},
                       {"allgather_bucket_size", kDeepSpeedBucketElements},
                       {"reduce_scatter", true}};
  b.step().notes.push_back(
      "DeepSpeed reduces each bucket with one reduce per partition owner; counted here as the reduce-scatter "
      "it amounts to");
  return b.step();
}

// DeepSpeed ZeRO-3: a layer's parameters gathered before its forward and again before its backward;
// gradients reduce-scattered in buckets that take whole layers up to reduce_bucket_size elements.
PresetStep zero3_step(const PresetInputs& in) {
  StepBuilder b(in);
  add_layer_gathers(b, "forward");
  add_layer_gathers(b, "backward");
  const std::uint64_t layer = params_per_layer(in);
  const std::uint64_t per_bucket = std::max<std::uint64_t>(1, kDeepSpeedBucketElements / layer);
  add_chunks(b, Collective::ReduceScatter, in.layers * layer, per_bucket * layer, "gradient bucket",
             "--params");
  b.step().defaults = {{"reduce_bucket_size", kDeepSpeedBucketElements}, {"layers_per_bucket", per_bucket}};
  b.step().notes.push_back("the backward pass interleaves its gathers and reduce-scatters layer by layer");
  return b.step();
}

// PyTorch FSDP, FULL_SHARD with one unit per layer: all-gather before each layer's forward and
// backward (reshard_after_forward), reduce-scatter of each layer's gradients.
PresetStep fsdp_step(const PresetInputs& in) {
  StepBuilder b(in);
  add_layer_gathers(b, "forward");
  add_layer_gathers(b, "backward");
  const std::uint64_t bytes =
      padded_bytes(params_per_layer(in) * size_of(in.dtype), Collective::ReduceScatter, in.dtype, in.dp);
  b.add(Collective::ReduceScatter, bytes, data_parallel_group(in), in.dp, in.layers,
        "backward: each layer's gradients", "--params");
  b.step().defaults = {{"sharding_strategy", "FULL_SHARD"}, {"reduce_dtype", "the parameters' type"}};
  b.step().notes.push_back("the backward pass interleaves its gathers and reduce-scatters layer by layer");
  return b.step();
}

}  // namespace commtune
