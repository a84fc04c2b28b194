#include "tuner_plugin/tuner_rules.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <string_view>

namespace commtune::tuner {

namespace {

constexpr std::array<const char*, 5> kFunctions{"broadcast", "reduce", "allgather", "reducescatter",
                                                "allreduce"};
constexpr std::array<const char*, 7> kAlgorithms{
    "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
constexpr std::array<const char*, 3> kProtocols{"ll", "ll128", "simple"};

template <std::size_t N>
int find_token(const std::array<const char*, N>& table, std::string_view token) {
  for (std::size_t i = 0; i < N; ++i)
    if (token == table[i]) return static_cast<int>(i);
  return -1;
}

template <std::size_t N>
const char* token_at(const std::array<const char*, N>& table, int index) {
  return index >= 0 && static_cast<std::size_t>(index) < N ? table[static_cast<std::size_t>(index)] : "?";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// An integer in [lo, hi], decimal, optional leading '-'; nothing else in the field.
bool parse_int(std::string_view s, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_bytes(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 20 || s.front() == '-' || s.front() == '+') return false;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return false;
  out = v;
  return true;
}

// A token of `table` or "-1" (NCCL's choice).
template <std::size_t N>
bool parse_choice(const std::array<const char*, N>& table, std::string_view s, int& out) {
  if (s == "-1") {
    out = -1;
    return true;
  }
  out = find_token(table, s);
  return out >= 0;
}

// Parses one non-comment line; returns the reason when it is malformed, empty when it is fine.
std::string parse_line(std::string_view line, TunerRule& rule) {
  std::array<std::string_view, 10> f{};
  std::size_t n = 0;
  while (true) {
    const auto comma = line.find(',');
    if (n == f.size()) return "more than 10 columns";
    f[n++] = trim(line.substr(0, comma));
    if (comma == std::string_view::npos) break;
    line.remove_prefix(comma + 1);
  }
  if (n < 8)
    return "fewer than 8 columns "
           "(collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks)";
  rule.function = find_token(kFunctions, f[0]);
  if (rule.function < 0)
    return "unknown collective_type (broadcast|reduce|allgather|reducescatter|allreduce)";
  if (!parse_bytes(f[1], rule.min_bytes)) return "min_bytes is not a number of bytes";
  if (!parse_bytes(f[2], rule.max_bytes)) return "max_bytes is not a number of bytes";
  if (rule.min_bytes > rule.max_bytes) return "min_bytes is above max_bytes";
  if (!parse_choice(kAlgorithms, f[3], rule.algorithm))
    return "unknown algorithm (tree|ring|collnet_direct|collnet_chain|nvls|nvls_tree|pat|-1)";
  if (!parse_choice(kProtocols, f[4], rule.protocol)) return "unknown protocol (ll|ll128|simple|-1)";
  std::int64_t v = 0;
  if (!parse_int(f[5], -1, kMaxChannels, v) || v == 0)
    return "channels is not -1 or 1.." + std::to_string(kMaxChannels);
  rule.channels = static_cast<int>(v);
  constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();
  if (!parse_int(f[6], -1, kMaxCount, rule.nnodes) || rule.nnodes == 0)
    return "nNodes is not -1 or a positive count";
  if (!parse_int(f[7], -1, kMaxCount, rule.nranks) || rule.nranks == 0)
    return "nRanks is not -1 or a positive count";
  if (n > 8 && (!parse_int(f[8], -1, kMaxCount, rule.num_pipe_ops) || rule.num_pipe_ops == 0))
    return "numPipeOps is not -1 or a positive count";
  if (n > 9) {
    if (!parse_int(f[9], -1, 1, v)) return "regBuff is not -1, 0 or 1";
    rule.reg_buff = static_cast<int>(v);
  }
  return {};
}

TunerRulesFile failed(std::size_t line, const std::string& why) {
  TunerRulesFile file;
  file.error = "line " + std::to_string(line) + ": " + why;
  return file;
}

}  // namespace

const char* function_token(int index) { return token_at(kFunctions, index); }
const char* algorithm_token(int index) { return token_at(kAlgorithms, index); }
const char* protocol_token(int index) { return token_at(kProtocols, index); }

TunerRulesFile parse_tuner_rules(std::istream& in) noexcept {
  try {
    TunerRulesFile file;
    std::string line;
    line.reserve(kMaxLineLength);
    std::size_t number = 0, total = 0;
    bool at_end = false;
    while (!at_end) {
      // One line, bounded: never more than kMaxLineLength characters are held.
      line.clear();
      ++number;
      while (true) {
        const int c = in.get();
        if (c == std::char_traits<char>::eof()) {
          at_end = true;
          break;
        }
        if (++total > kMaxFileBytes)
          return failed(number, "the file is larger than " + std::to_string(kMaxFileBytes) + " bytes");
        if (c == '\n') break;
        if (line.size() == kMaxLineLength)
          return failed(number, "longer than " + std::to_string(kMaxLineLength) + " characters");
        if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
          return failed(number, "a control character");
        line.push_back(static_cast<char>(c));
      }
      if (in.bad()) return failed(number, "read error");
      const auto text = trim(line);
      if (text.empty() || text.front() == '#') continue;
      TunerRule rule;
      rule.line = number;
      if (const auto why = parse_line(text, rule); !why.empty()) return failed(number, why);
      if (file.rules.size() == kMaxRules)
        return failed(number, "more than " + std::to_string(kMaxRules) + " rules");
      file.rules.push_back(rule);
    }
    file.ok = true;
    return file;
  } catch (...) {  // allocation failure: no rules, NCCL's defaults
    TunerRulesFile file;
    file.error = "out of memory while reading";
    return file;
  }
}

}  // namespace commtune::tuner
