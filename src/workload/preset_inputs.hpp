#pragma once
// The numbers of a preset (workload/presets), read from the flags as typed, each checked against
// its range with the flag's name in the message; and what every preset shares: the layout of its
// groups over the job, sizes padded to what a collective can carry.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "plan/groups.hpp"
#include "workload/presets.hpp"

namespace commtune {

inline constexpr std::uint64_t kMaxParams = 1'000'000'000'000'000ull;  // 1e15
inline constexpr std::uint64_t kFirstBucketBytes = 1ull << 20;  // torch dist._DEFAULT_FIRST_BUCKET_BYTES
inline constexpr double kDefaultBucketMib = 25;                 // DDP's bucket_cap_mb
inline constexpr std::uint64_t kDeepSpeedBucketElements = 500'000'000;  // reduce_/allgather_bucket_size

struct PresetInputs {
  std::uint64_t params = 0;       // --params: the whole model's
  std::uint64_t layers = 0;       // --layers
  std::uint64_t hidden = 0;       // --hidden
  std::uint64_t seq = 0;          // --seq
  std::uint64_t micro_batch = 0;  // --micro-batch
  int tp = 1;                     // --tp
  int dp = 1;                     // --dp
  DataType dtype = DataType::BFloat16;
  std::uint64_t bucket_bytes = 0;  // --bucket (MiB) in bytes; DDP's default when not given
  bool sequence_parallel = false;
};

// "8B", "1.3B", "350M", "20K", "1T" (thousand, million, billion, trillion; any case) or a plain
// whole number; the result must be a whole number from 1 to kMaxParams. InputError naming `flag`.
std::uint64_t parse_param_count(std::string_view text, const std::string& flag);

// A data type for training: a floating one, "fp32" / "fp16" / "fp64" as aliases.
DataType parse_training_dtype(std::string_view text, const std::string& flag);

// The flags of `request`: every one of `required` given, none outside required and `optional`.
PresetInputs read_preset_inputs(const PresetRequest& request, const std::vector<std::string>& required,
                                const std::vector<std::string>& optional);

// The job's ranks, tp x dp, and its two kinds of groups as --groups spells them: the tensor-parallel
// group (tp consecutive ranks, "DIV tp") and the data-parallel group (the ranks with the same rank
// mod tp, "MOD tp"); either is "world" when it has every rank.
int world_ranks_of(const PresetInputs& in);
GroupSpec tensor_parallel_group(const PresetInputs& in);
GroupSpec data_parallel_group(const PresetInputs& in);

// `bytes` rounded up to the collective's granularity on `ranks` (a whole element, every rank's share a
// whole number of 16-byte units): the frameworks pad their flat buffers the same way.
std::uint64_t padded_bytes(std::uint64_t bytes, Collective c, DataType t, int ranks);

}  // namespace commtune
