#include "core/types.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "core/errors.hpp"

namespace commtune {
namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<Collective, 4> kCollectiveNames{{{Collective::AllReduce, "allreduce"},
                                                    {Collective::AllGather, "allgather"},
                                                    {Collective::Broadcast, "broadcast"},
                                                    {Collective::ReduceScatter, "reducescatter"}}};
constexpr NameTable<DataType, 10> kTypeNames{{{DataType::Int8, "int8"},
                                             {DataType::Uint8, "uint8"},
                                             {DataType::Int32, "int32"},
                                             {DataType::Uint32, "uint32"},
                                             {DataType::Int64, "int64"},
                                             {DataType::Uint64, "uint64"},
                                             {DataType::Float16, "half"},
                                             {DataType::BFloat16, "bfloat16"},
                                             {DataType::Float32, "float"},
                                             {DataType::Float64, "double"}}};
constexpr NameTable<ReduceOp, 4> kOpNames{
    {{ReduceOp::Sum, "sum"}, {ReduceOp::Prod, "prod"}, {ReduceOp::Max, "max"}, {ReduceOp::Min, "min"}}};
constexpr NameTable<Placement, 2> kPlacementNames{
    {{Placement::OutOfPlace, "out-of-place"}, {Placement::InPlace, "in-place"}}};

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

template <typename Enum, std::size_t N>
std::string_view lookup_name(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, std::size_t N>
std::string known_names(const NameTable<Enum, N>& table) {
  std::string out;
  for (const auto& entry : table) out += (out.empty() ? "" : ", ") + std::string(entry.second);
  return out;
}

template <typename Enum, std::size_t N>
Enum lookup_value(const NameTable<Enum, N>& table, std::string_view text, std::string_view what,
                  std::initializer_list<std::pair<std::string_view, Enum>> aliases = {}) {
  const std::string key = lowercase(text);
  for (const auto& [e, name] : table)
    if (name == key) return e;
  for (const auto& [alias, e] : aliases)
    if (alias == key) return e;
  throw InputError("unknown " + std::string(what) + " '" + std::string(text) + "' (known: " +
                   known_names(table) + ")");
}

}  // namespace

std::string_view name_of(Collective c) { return lookup_name(kCollectiveNames, c); }
std::string_view name_of(DataType t) { return lookup_name(kTypeNames, t); }
std::string_view name_of(ReduceOp op) { return lookup_name(kOpNames, op); }
std::string_view name_of(Placement p) { return lookup_name(kPlacementNames, p); }

Collective parse_collective(std::string_view text) {
  return lookup_value(kCollectiveNames, text, "collective",
                      {{"all_reduce", Collective::AllReduce},
                       {"all_gather", Collective::AllGather},
                       {"bcast", Collective::Broadcast},
                       {"reduce_scatter", Collective::ReduceScatter}});
}

DataType parse_data_type(std::string_view text) {
  return lookup_value(kTypeNames, text, "data type",
                      {{"char", DataType::Int8},
                       {"int", DataType::Int32},
                       {"float16", DataType::Float16},
                       {"bf16", DataType::BFloat16},
                       {"float32", DataType::Float32},
                       {"float64", DataType::Float64}});
}

ReduceOp parse_reduce_op(std::string_view text) { return lookup_value(kOpNames, text, "reduction op"); }

Placement parse_placement(std::string_view text) {
  return lookup_value(kPlacementNames, text, "placement",
                      {{"oop", Placement::OutOfPlace}, {"ip", Placement::InPlace}});
}

std::size_t size_of(DataType t) {
  switch (t) {
    case DataType::Int8:
    case DataType::Uint8: return 1;
    case DataType::Float16:
    case DataType::BFloat16: return 2;
    case DataType::Int32:
    case DataType::Uint32:
    case DataType::Float32: return 4;
    case DataType::Int64:
    case DataType::Uint64:
    case DataType::Float64: return 8;
  }
  return 1;
}

bool is_floating(DataType t) {
  return t == DataType::Float16 || t == DataType::BFloat16 || t == DataType::Float32 ||
         t == DataType::Float64;
}

const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> all{Collective::AllReduce, Collective::AllGather,
                                           Collective::Broadcast, Collective::ReduceScatter};
  return all;
}

}  // namespace commtune
