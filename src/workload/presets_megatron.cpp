// Megatron-LM tensor parallelism (docs/workload.md): per transformer layer, the attention block and
// the MLP block each end in a row-parallel linear whose output is all-reduced over the
// tensor-parallel group in the forward pass, and each starts with a column-parallel linear whose
// input gradient is all-reduced in the backward pass. With sequence parallelism each forward
// all-reduce becomes a reduce-scatter and the all-gather before the next block, and the backward pass
// runs their gradients (an all-gather and a reduce-scatter) and gathers each linear's input again for
// its weight gradient.
#include "core/errors.hpp"
#include "workload/preset_steps.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

// micro-batch x sequence x hidden, in bytes: an InputError when more than one collective may carry.
std::uint64_t activation_bytes(const PresetInputs& in) {
  std::uint64_t elements = 0, bytes = 0;
  const bool overflow = __builtin_mul_overflow(in.micro_batch, in.seq, &elements) ||
                        __builtin_mul_overflow(elements, in.hidden, &elements) ||
                        __builtin_mul_overflow(elements, size_of(in.dtype), &bytes);
  if (overflow || bytes > static_cast<std::uint64_t>(kMaxWorkloadBytes))
    throw InputError("--hidden: --micro-batch x --seq x --hidden is more than one collective carries (" +
                     std::to_string(kMaxWorkloadBytes) + " bytes)");
  return bytes;
}

}  // namespace

PresetStep megatron_tp_step(const PresetInputs& in) {
  if (in.tp < 2) throw InputError("--tp: the tensor-parallel group needs at least 2 ranks");
  StepBuilder b(in);
  const std::uint64_t bytes = activation_bytes(in);
  const GroupSpec group = tensor_parallel_group(in);
  const std::uint64_t per_pass = 2 * in.layers;
  b.step().defaults = {{"blocks_per_layer", 2}, {"micro_batches", 1}};
  b.step().notes.push_back(
      "one micro-batch: with gradient accumulation a step runs this once per micro-batch");
  b.step().notes.push_back("the data-parallel gradient reduction is not included");
  if (!in.sequence_parallel) {
    b.add(Collective::AllReduce, bytes, group, in.tp, per_pass, "forward: attention and MLP outputs",
          "--hidden");
    b.add(Collective::AllReduce, bytes, group, in.tp, per_pass, "backward: attention and MLP input gradients",
          "--hidden");
    return b.step();
  }
  if (in.seq % static_cast<std::uint64_t>(in.tp) != 0)
    throw InputError("--seq: sequence parallelism splits the sequence over --tp ranks; " +
                     std::to_string(in.seq) + " is not a multiple of " + std::to_string(in.tp));
  const std::uint64_t ag = padded_bytes(bytes, Collective::AllGather, in.dtype, in.tp);
  const std::uint64_t rs = padded_bytes(bytes, Collective::ReduceScatter, in.dtype, in.tp);
  b.add(Collective::AllGather, ag, group, in.tp, per_pass, "forward: sequence gathered before each block",
        "--hidden");
  b.add(Collective::ReduceScatter, rs, group, in.tp, per_pass, "forward: each block's output", "--hidden");
  b.add(Collective::AllGather, ag, group, in.tp, per_pass, "backward: gradient of the output reduce-scatter",
        "--hidden");
  b.add(Collective::AllGather, ag, group, in.tp, per_pass,
        "backward: input gathered again for the weight gradient", "--hidden");
  b.add(Collective::ReduceScatter, rs, group, in.tp, per_pass, "backward: gradient of the input all-gather",
        "--hidden");
  b.step().notes.push_back("the passes interleave their gathers and reduce-scatters layer by layer");
  return b.step();
}

}  // namespace commtune
