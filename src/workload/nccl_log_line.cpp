#include "workload/nccl_log_line.hpp"

#include <charconv>
#include <vector>

namespace commtune {
namespace {

constexpr std::string_view kInfoMark = " NCCL INFO ";
constexpr std::string_view kCallMark = "opCount ";
constexpr std::string_view kInitMark = "- Init COMPLETE";

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r') ++j;
    if (j > i) words.push_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

template <typename T>
bool number(std::string_view text, T& out, int base = 10) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return error == std::errc() && end == text.data() + text.size();
}

// %p as glibc prints it: 0x followed by hex digits, or (nil).
bool pointer(std::string_view text, std::uint64_t& out) {
  if (text == "(nil)") {
    out = 0;
    return true;
  }
  return text.size() > 2 && text.substr(0, 2) == "0x" && number(text.substr(2), out, 16);
}

// "HOST:PID:TID [DEV]": the two words before the INFO mark (a timestamp may come before them).
bool prefix(std::string_view head, NcclLine& line) {
  const std::vector<std::string_view> words = split_words(head);
  if (words.size() < 2) return false;
  const std::string_view dev = words[words.size() - 1];
  const std::string_view who = words[words.size() - 2];
  int device = 0;
  if (dev.size() < 3 || dev.front() != '[' || dev.back() != ']' ||
      !number(dev.substr(1, dev.size() - 2), device))
    return false;
  const std::size_t tid_colon = who.rfind(':');
  if (tid_colon == std::string_view::npos || tid_colon == 0) return false;
  const std::size_t pid_colon = who.rfind(':', tid_colon - 1);
  if (pid_colon == std::string_view::npos || pid_colon == 0) return false;
  std::int64_t tid = 0;
  if (!number(who.substr(pid_colon + 1, tid_colon - pid_colon - 1), line.pid) ||
      !number(who.substr(tid_colon + 1), tid))
    return false;
  line.host = who.substr(0, pid_colon);
  return true;
}

// "NAME: opCount %lx sendbuff %p recvbuff %p count %zu datatype %d op %d root %d comm %p
// [nranks=%d] stream %p", exactly: 20 words.
bool call_body(const std::vector<std::string_view>& w, NcclCallLine& call) {
  static constexpr std::string_view kNames[] = {"opCount",  "sendbuff", "recvbuff", "count",
                                                "datatype", "op",       "root",     "comm"};
  if (w.size() != 20 || w[0].size() < 2 || w[0].back() != ':' || w[18] != "stream") return false;
  for (std::size_t k = 0; k < std::size(kNames); ++k)
    if (w[1 + 2 * k] != kNames[k]) return false;
  call.function = w[0].substr(0, w[0].size() - 1);
  for (const char c : call.function)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  std::uint64_t ignored = 0;
  std::int64_t root = 0;
  if (!number(w[2], ignored, 16) || !pointer(w[4], ignored) || !pointer(w[6], ignored) ||
      !number(w[8], call.count) || !number(w[10], call.datatype) || !number(w[12], call.op) ||
      !number(w[14], root) || !pointer(w[16], call.comm) || call.comm == 0 || !pointer(w[19], ignored))
    return false;
  constexpr std::string_view kRanks = "[nranks=";
  const std::string_view ranks = w[17];
  if (ranks.size() <= kRanks.size() + 1 || ranks.substr(0, kRanks.size()) != kRanks || ranks.back() != ']')
    return false;
  return number(ranks.substr(kRanks.size(), ranks.size() - kRanks.size() - 1), call.nranks) &&
         call.nranks > 0;
}

// The optional fields after busId: "parent %p", "splitCount %d", "childCount %d", "color %d",
// "key %d", "commId 0x%llx".
bool init_field(std::string_view name, std::string_view value, NcclInitLine& init) {
  std::int64_t n = 0;
  std::uint64_t u = 0;
  if (name == "parent") return pointer(value, u) && (init.parent = u, true);
  if (name == "splitCount" || name == "childCount") return number(value, n) && (init.split_count = n, true);
  if (name == "color") return number(value, n) && (init.color = n, true);
  if (name == "key") return number(value, n);
  if (name == "commId") return pointer(value, u) && (init.comm_id = u, true);
  return false;
}

// "[FUNC] comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx [FIELD VALUE]... - Init COMPLETE"
bool init_body(const std::vector<std::string_view>& w, NcclInitLine& init) {
  const std::size_t first = !w.empty() && w[0].substr(0, 4) == "nccl" ? 1 : 0;
  if (w.size() < first + 15) return false;
  const std::size_t end = w.size() - 3;  // "-", "Init", "COMPLETE"
  if ((end - first) % 2 != 0) return false;
  static constexpr std::string_view kNames[] = {"comm", "rank", "nranks", "cudaDev", "nvmlDev", "busId"};
  for (std::size_t k = 0; k < std::size(kNames); ++k)
    if (w[first + 2 * k] != kNames[k]) return false;
  int nvml = 0;
  std::uint64_t bus = 0;
  if (!pointer(w[first + 1], init.comm) || init.comm == 0 || !number(w[first + 3], init.rank) ||
      !number(w[first + 5], init.nranks) || !number(w[first + 7], init.cuda_dev) ||
      !number(w[first + 9], nvml) || !number(w[first + 11], bus, 16))
    return false;
  for (std::size_t k = first + 12; k < end; k += 2)
    if (!init_field(w[k], w[k + 1], init)) return false;
  return init.nranks > 0 && init.rank >= 0 && init.rank < init.nranks && w[end] == "-" &&
         w[end + 1] == "Init" && w[end + 2] == "COMPLETE";
}

}  // namespace

NcclLine parse_nccl_line(std::string_view text) {
  NcclLine line;
  const bool is_call = text.find(kCallMark) != std::string_view::npos;
  const bool is_init = !is_call && text.find(kInitMark) != std::string_view::npos;
  if (!is_call && !is_init) return line;
  line.kind = NcclLineKind::Malformed;
  const std::size_t mark = text.find(kInfoMark);
  if (mark == std::string_view::npos || !prefix(text.substr(0, mark), line)) return line;
  const std::vector<std::string_view> words = split_words(text.substr(mark + kInfoMark.size()));
  if (is_call && call_body(words, line.call)) line.kind = NcclLineKind::Call;
  if (is_init && init_body(words, line.init)) line.kind = NcclLineKind::Init;
  return line;
}

}  // namespace commtune
