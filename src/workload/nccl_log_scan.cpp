#include "workload/nccl_log_scan.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "core/collective_traits.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

std::string hex(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  return "0x" + out;
}

// ncclDataType_t (nccl.h): ncclInt8 = 0 ... ncclBfloat16 = 9; 10 and 11 are the fp8 types of
// NCCL 2.24 and later, which commtune does not measure.
std::optional<DataType> data_type_of(std::int64_t nccl) {
  static constexpr std::array<DataType, 10> kTypes = {
      DataType::Int8,   DataType::Uint8,   DataType::Int32,   DataType::Uint32,  DataType::Int64,
      DataType::Uint64, DataType::Float16, DataType::Float32, DataType::Float64, DataType::BFloat16};
  if (nccl < 0 || nccl >= static_cast<std::int64_t>(kTypes.size())) return std::nullopt;
  return kTypes[static_cast<std::size_t>(nccl)];
}

std::string data_type_words(std::int64_t nccl) {
  if (nccl == 10) return "10 (ncclFloat8e4m3)";
  if (nccl == 11) return "11 (ncclFloat8e5m2)";
  return std::to_string(nccl);
}

// ncclRedOp_t: sum, prod, max, min; ncclAvg (4) and the ops a job creates (PreMulSum, 5 and up)
// move the bytes of a sum.
ReduceOp reduce_op_of(std::int64_t nccl) {
  switch (nccl) {
    case 1:
      return ReduceOp::Prod;
    case 2:
      return ReduceOp::Max;
    case 3:
      return ReduceOp::Min;
    default:
      return ReduceOp::Sum;
  }
}

std::optional<Collective> collective_of(std::string_view function) {
  if (function == "AllReduce") return Collective::AllReduce;
  if (function == "AllGather") return Collective::AllGather;
  if (function == "Broadcast") return Collective::Broadcast;
  if (function == "ReduceScatter") return Collective::ReduceScatter;
  return std::nullopt;
}

// Lines of `in`, each at most kMaxLineBytes (a longer one is handed over cut, and marked so).
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}
  bool next(std::string& line, bool& cut) {
    line.clear();
    cut = false;
    for (;;) {
      if (pos_ == end_) {
        in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        end_ = static_cast<std::size_t>(in_.gcount());
        pos_ = 0;
        if (end_ == 0) return !line.empty() || cut;
      }
      const char* begin = buffer_.data() + pos_;
      const char* stop = static_cast<const char*>(std::memchr(begin, '\n', end_ - pos_));
      const std::size_t n = stop ? static_cast<std::size_t>(stop - begin) : end_ - pos_;
      const std::size_t room = kMaxLineBytes - line.size();
      if (n > room) cut = true;
      line.append(begin, std::min(n, room));
      pos_ += stop ? n + 1 : n;
      if (stop) return true;
    }
  }

 private:
  std::istream& in_;
  std::array<char, 1 << 16> buffer_{};
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
};

}  // namespace

void NcclLogScanner::scan(std::istream& in, const std::string& origin) {
  calls_in_input_ = 0;
  LineReader reader(in);
  std::string line;
  bool cut = false;
  for (std::uint64_t number = 1; reader.next(line, cut); ++number) {
    if (cut) {
      ++scan_.skipped_lines;  // no NCCL line is that long
      continue;
    }
    on_line(line, origin + ":" + std::to_string(number), origin);
  }
  if (in.bad()) throw InputError("cannot read '" + excerpt(origin, 200) + "'");
  if (calls_in_input_ == 0)
    throw InputError("'" + excerpt(origin, 200) +
                     "': no NCCL collective line (\"NCCL INFO AllReduce: opCount ...\"); run the job with "
                     "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL");
}

void NcclLogScanner::on_line(std::string_view text, const std::string& where, const std::string& origin) {
  const NcclLine line = parse_nccl_line(text);
  if (line.kind == NcclLineKind::Other) return;
  if (line.kind == NcclLineKind::Malformed) {
    ++scan_.skipped_lines;
    return;
  }
  const std::size_t process = process_of(line.host, line.pid, origin);
  if (line.kind == NcclLineKind::Init) return on_init(process, line.init);
  ++calls_in_input_;
  on_call(process, line.call, where);
}

std::size_t NcclLogScanner::process_of(std::string_view host, std::int64_t pid, const std::string& origin) {
  const std::string key = std::string(host) + ":" + std::to_string(pid);
  const auto [it, added] = process_index_.emplace(key, scan_.processes.size());
  if (added) scan_.processes.push_back(ScannedProcess{.host = std::string(host), .pid = pid, .file = origin});
  return it->second;
}

std::string NcclLogScanner::group_of(std::size_t process, const NcclInitLine& init) {
  if (init.comm_id && *init.comm_id != 0) return "id " + hex(*init.comm_id);
  if (!init.parent) return {};
  const auto parent = live_.find({process, *init.parent});
  const std::string parent_group = parent != live_.end() ? scan_.comms[parent->second].group : std::string();
  if (parent_group.empty()) return {};
  // NCCL 2.23 prints no split count: the splits of one parent are counted here instead.
  const std::int64_t split =
      init.split_count ? *init.split_count : splits_[std::to_string(process) + " " + parent_group]++;
  return "split " + std::to_string(split) + " color " + std::to_string(init.color.value_or(0)) + " of (" +
         parent_group + ")";
}

void NcclLogScanner::on_init(std::size_t process, const NcclInitLine& init) {
  // The group first: a parent named by the address this line rebinds is the communicator that
  // held it until now, never the one being added.
  std::string group = group_of(process, init);
  // An address reused after ncclCommDestroy is a new communicator from its init line on.
  live_[{process, init.comm}] = scan_.comms.size();
  scan_.comms.push_back(ScannedComm{.process = process,
                                    .address = init.comm,
                                    .nranks = init.nranks,
                                    .rank = init.rank,
                                    .cuda_dev = init.cuda_dev,
                                    .group = std::move(group),
                                    .calls = {}});
}

void NcclLogScanner::on_call(std::size_t process, const NcclCallLine& call, const std::string& where) {
  auto [it, added] = live_.emplace(std::pair{process, call.comm}, scan_.comms.size());
  if (added)
    scan_.comms.push_back(ScannedComm{.process = process,
                                      .address = call.comm,
                                      .nranks = call.nranks,
                                      .rank = -1,
                                      .cuda_dev = -1,
                                      .group = {},
                                      .calls = {}});
  ScannedComm& comm = scan_.comms[it->second];
  if (comm.nranks != call.nranks)
    throw InputError(excerpt(where, 200) + ": communicator " + hex(call.comm) + " has nranks=" +
                     std::to_string(call.nranks) + " here and " + std::to_string(comm.nranks) + " before");
  const std::optional<Collective> collective = collective_of(call.function);
  if (!collective) {
    ++scan_.not_measured[std::string(call.function)];
    return;
  }
  const std::optional<DataType> type = data_type_of(call.datatype);
  if (!type)
    throw InputError(excerpt(where, 200) + ": datatype " + data_type_words(call.datatype) +
                     " is not one commtune measures (ncclDataType_t 0-9: int8 ... bfloat16)");
  const bool total = *collective == Collective::AllGather || *collective == Collective::ReduceScatter;
  const std::uint64_t elements = total ? call.count * static_cast<std::uint64_t>(call.nranks) : call.count;
  if (call.count > (1ull << 50) || elements > (1ull << 50))
    throw InputError(excerpt(where, 200) + ": count " + std::to_string(call.count) + " is not plausible");
  const CallKey key{.collective = *collective,
                    .bytes = elements * size_of(*type),
                    .datatype = *type,
                    .op = traits_of(*collective).reduces ? reduce_op_of(call.op) : ReduceOp::Sum};
  if (traits_of(*collective).reduces && call.op >= 4) ++scan_.sum_like_ops;
  comm.calls.add(scan_.keys.intern(key, excerpt(where, 200)));
}

}  // namespace commtune
