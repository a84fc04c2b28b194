#include "workload/preset_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/message_text.hpp"
#include "workload/workload_checks.hpp"

namespace commtune {
namespace {

constexpr std::uint64_t kMaxLayers = 1'000'000;
constexpr std::uint64_t kMaxHidden = 10'000'000;
constexpr std::uint64_t kMaxSeq = 100'000'000;
constexpr std::uint64_t kMaxMicroBatch = 1'000'000;
constexpr std::uint64_t kMaxGroupRanks = 1 << 20;
constexpr double kMaxBucketMib = 1 << 20;

[[noreturn]] void refuse(const std::string& flag, const std::string& expected, std::string_view text) {
  throw InputError(flag + ": expected " + expected + ", got " + quote_text(text));
}

std::uint64_t count_at(std::string_view text, const std::string& flag, std::uint64_t low,
                       std::uint64_t high) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    refuse(flag, "an integer from " + std::to_string(low) + " to " + std::to_string(high), text);
  return value;
}

int suffix_exponent(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'k':
      return 3;
    case 'm':
      return 6;
    case 'b':
      return 9;
    case 't':
      return 12;
    default:
      return -1;
  }
}

// DDP's bucket_cap_mb in bytes, as torch computes it: int(bucket_cap_mb * 1024 * 1024).
std::uint64_t bucket_bytes_at(const std::string& text, const std::string& flag) {
  const std::string expected =
      "a number of MiB above 0, at most " + std::to_string(static_cast<int>(kMaxBucketMib));
  char* end = nullptr;
  const double mib = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                         ? NAN
                         : std::strtod(text.c_str(), &end);
  if (std::isnan(mib) || end != text.c_str() + text.size() || !(mib > 0 && mib <= kMaxBucketMib))
    refuse(flag, expected, text);
  const auto bytes = static_cast<std::uint64_t>(mib * 1024 * 1024);
  if (bytes == 0) refuse(flag, expected + " (at least one byte)", text);
  return bytes;
}

void check_flags(const PresetRequest& r, const std::vector<std::string>& required,
                 const std::vector<std::string>& optional) {
  const auto takes = [&](const std::string& flag) {
    return std::count(required.begin(), required.end(), flag) +
           std::count(optional.begin(), optional.end(), flag);
  };
  for (const auto& [flag, value] : r.flags)
    if (!takes(flag)) throw InputError(flag + ": not used by --preset " + r.preset);
  if (r.sequence_parallel && !takes("--sequence-parallel"))
    throw InputError("--sequence-parallel: not used by --preset " + r.preset);
  for (const std::string& flag : required)
    if (!r.flags.count(flag)) throw InputError(flag + ": --preset " + r.preset + " needs it");
}

}  // namespace

std::uint64_t parse_param_count(std::string_view text, const std::string& flag) {
  const std::string expected =
      "a whole number of parameters from 1 to 1e15, such as 8B, 1.3B, 350M or 125000000";
  std::size_t i = 0;
  std::uint64_t mantissa = 0;
  int digits = 0, fraction = -1;  // fraction: digits after the point, -1 without one
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && fraction < 0 && digits > 0) {
      fraction = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && digits < 18) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
      ++digits;
      if (fraction >= 0) ++fraction;
    } else {
      break;
    }
  }
  const int exponent = i + 1 == text.size() ? suffix_exponent(text[i]) : (i == text.size() ? 0 : -1);
  if (digits == 0 || fraction == 0 || exponent < 0) refuse(flag, expected, text);
  int scale = exponent - std::max(fraction, 0);
  for (; scale < 0; ++scale) {
    if (mantissa % 10 != 0) refuse(flag, expected, text);
    mantissa /= 10;
  }
  for (; scale > 0 && mantissa <= kMaxParams; --scale) mantissa *= 10;
  if (mantissa < 1 || mantissa > kMaxParams) refuse(flag, expected, text);
  return mantissa;
}

DataType parse_training_dtype(std::string_view text, const std::string& flag) {
  std::string name(text);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.size() == 4 && name.rfind("fp", 0) == 0) name = "float" + name.substr(2);  // fp16, fp32, fp64
  const DataType t = parsed_at(flag, [&] { return parse_data_type(name); });
  if (!is_floating(t))
    throw InputError(flag + ": " + quote_text(text) +
                     " is not a training type (bfloat16, float16, float32, float64)");
  return t;
}

PresetInputs read_preset_inputs(const PresetRequest& r, const std::vector<std::string>& required,
                                const std::vector<std::string>& optional) {
  check_flags(r, required, optional);
  const auto text = [&](const char* flag) -> const std::string* {
    const auto it = r.flags.find(flag);
    return it == r.flags.end() ? nullptr : &it->second;
  };
  PresetInputs in;
  if (const auto* t = text("--params")) in.params = parse_param_count(*t, "--params");
  if (const auto* t = text("--layers")) in.layers = count_at(*t, "--layers", 1, kMaxLayers);
  if (const auto* t = text("--hidden")) in.hidden = count_at(*t, "--hidden", 1, kMaxHidden);
  if (const auto* t = text("--seq")) in.seq = count_at(*t, "--seq", 1, kMaxSeq);
  if (const auto* t = text("--micro-batch"))
    in.micro_batch = count_at(*t, "--micro-batch", 1, kMaxMicroBatch);
  if (const auto* t = text("--tp")) in.tp = static_cast<int>(count_at(*t, "--tp", 1, kMaxGroupRanks));
  if (const auto* t = text("--dp")) in.dp = static_cast<int>(count_at(*t, "--dp", 1, kMaxGroupRanks));
  if (const auto* t = text("--dtype")) in.dtype = parse_training_dtype(*t, "--dtype");
  const auto* bucket = text("--bucket");
  in.bucket_bytes = bucket ? bucket_bytes_at(*bucket, "--bucket")
                           : static_cast<std::uint64_t>(kDefaultBucketMib * 1024 * 1024);
  in.sequence_parallel = r.sequence_parallel;
  if (static_cast<std::int64_t>(in.tp) * in.dp > kMaxWorldRanks)
    throw InputError("--dp: --tp x --dp is " + std::to_string(static_cast<std::int64_t>(in.tp) * in.dp) +
                     " ranks, more than " + std::to_string(kMaxWorldRanks));
  return in;
}

int world_ranks_of(const PresetInputs& in) { return in.tp * in.dp; }

GroupSpec tensor_parallel_group(const PresetInputs& in) {
  if (in.dp == 1) return GroupSpec{};
  return GroupSpec{.kind = GroupKind::Split, .op = SplitOp::Div, .value = static_cast<std::uint32_t>(in.tp)};
}

GroupSpec data_parallel_group(const PresetInputs& in) {
  if (in.tp == 1) return GroupSpec{};
  return GroupSpec{.kind = GroupKind::Split, .op = SplitOp::Mod, .value = static_cast<std::uint32_t>(in.tp)};
}

std::uint64_t padded_bytes(std::uint64_t bytes, Collective c, DataType t, int ranks) {
  const std::uint64_t unit = size_granularity(c, t, ranks);
  return (bytes + unit - 1) / unit * unit;
}

}  // namespace commtune
