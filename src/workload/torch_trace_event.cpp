#include "workload/torch_trace_event.hpp"

#include <charconv>
#include <map>
#include <string_view>

#include "core/errors.hpp"
#include "core/json_fields.hpp"

namespace commtune {
namespace {

using nlohmann::json;

// c10d's collective names (ProcessGroupNCCL's RECORD_PARAM_COMMS_DATA colName) for the four
// collectives commtune measures; coalesced calls count as one call of their whole size.
std::optional<Collective> collective_of(const std::string& name) {
  static const std::map<std::string, Collective, std::less<>> kNames = {
      {"allreduce", Collective::AllReduce},
      {"all_reduce", Collective::AllReduce},
      {"allreduce_coalesced", Collective::AllReduce},
      {"allgather", Collective::AllGather},
      {"all_gather", Collective::AllGather},
      {"_allgather_base", Collective::AllGather},
      {"all_gather_into_tensor", Collective::AllGather},
      {"allgather_into_tensor_coalesced", Collective::AllGather},
      {"all_gather_into_tensor_coalesced", Collective::AllGather},
      {"allgather_coalesced", Collective::AllGather},
      {"reduce_scatter", Collective::ReduceScatter},
      {"_reduce_scatter_base", Collective::ReduceScatter},
      {"reduce_scatter_tensor", Collective::ReduceScatter},
      {"reduce_scatter_tensor_coalesced", Collective::ReduceScatter},
      {"broadcast", Collective::Broadcast},
      {"_broadcast_oop", Collective::Broadcast},
  };
  const auto it = kNames.find(name);
  if (it == kNames.end()) return std::nullopt;
  return it->second;
}

// c10::toString(ScalarType) names.
DataType data_type_of(const std::string& name, const std::string& where) {
  static const std::map<std::string, DataType, std::less<>> kTypes = {
      {"Char", DataType::Int8},        {"Byte", DataType::Uint8},    {"Int", DataType::Int32},
      {"UInt32", DataType::Uint32},    {"Long", DataType::Int64},    {"UInt64", DataType::Uint64},
      {"Half", DataType::Float16},     {"Float", DataType::Float32}, {"Double", DataType::Float64},
      {"BFloat16", DataType::BFloat16}};
  const auto it = kTypes.find(name);
  if (it == kTypes.end())
    throw InputError(where + ": dtype \"" + excerpt(name) + "\" is not one commtune measures");
  return it->second;
}

std::uint64_t elements(const json& args, const char* key, const std::string& where) {
  return static_cast<std::uint64_t>(
      integer_in(required_field(args, key, where), member_path(where, key), 0, std::int64_t{1} << 50));
}

}  // namespace

std::optional<std::vector<int>> parse_rank_list(const json& value, const std::string& where) {
  if (value.is_array()) {
    std::vector<int> ranks;
    for (std::size_t i = 0; i < value.size(); ++i)
      ranks.push_back(
          static_cast<int>(integer_in(value[i], where + "[" + std::to_string(i) + "]", 0, 1 << 20)));
    return ranks;
  }
  const std::string text = value_as<std::string>(value, where);
  if (text.find("...") != std::string::npos) return std::nullopt;  // the profiler cuts lists at 30
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    bad_value(where, "a list of ranks such as \"[0, 1]\"", value);
  std::vector<int> ranks;
  std::string_view rest(text.data() + 1, text.size() - 2);
  while (!rest.empty()) {
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == ',')) rest.remove_prefix(1);
    if (rest.empty()) break;
    int rank = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), rank);
    if (error != std::errc() || rank < 0 || rank > (1 << 20))
      bad_value(where, "a list of ranks such as \"[0, 1]\"", value);
    ranks.push_back(rank);
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
  }
  return ranks;
}

TorchCommEvent read_comm_event(const json& event, const std::string& where) {
  const json& args = required_field(event, "args", where);
  const std::string at = where + ".args";
  TorchCommEvent out;
  out.ts = number_in(required_field(event, "ts", where), where + ".ts", -1e18, 1e18);
  out.name = field_as<std::string>(args, "Collective name", at);
  out.group_size =
      static_cast<int>(integer_in(required_field(args, "Group size", at), at + ".Group size", 1, 1 << 20));
  const std::optional<Collective> collective = collective_of(out.name);
  // Not a collective commtune measures ("wait", "barrier", point-to-point): its other fields are not
  // read. A real trace (torch 2.11, the device check's DDP job) has "wait" events of "Group size" 1
  // with an empty rank list.
  if (!collective) return out;
  if (const auto ranks = args.find("Process Group Ranks"); ranks != args.end())
    out.ranks = parse_rank_list(*ranks, at + ".Process Group Ranks");
  if (out.ranks && static_cast<int>(out.ranks->size()) != out.group_size)
    throw InputError(at + ": \"Process Group Ranks\" has " + std::to_string(out.ranks->size()) +
                     " ranks, \"Group size\" says " + std::to_string(out.group_size));
  const auto name = args.find("Process Group Name");
  out.group = name != args.end() && name->is_string() ? "pg " + name->get<std::string>()
              : out.ranks                             ? "ranks " + json(*out.ranks).dump()
                                                      : "size " + std::to_string(out.group_size);
  const DataType type = data_type_of(field_as<std::string>(args, "dtype", at), at + ".dtype");
  const std::uint64_t in = elements(args, "In msg nelems", at);
  const std::uint64_t out_elements = elements(args, "Out msg nelems", at);
  // nccl-tests' size: the larger buffer (all-gather's output, reduce-scatter's input).
  out.call = CallKey{.collective = *collective,
                     .bytes = std::max(in, out_elements) * size_of(type),
                     .datatype = type,
                     .op = ReduceOp::Sum};
  return out;
}

}  // namespace commtune
