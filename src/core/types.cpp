#include "core/types.hpp"

#include <algorithm>
#include <cctype>

#include "core/collective_table.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "core/name_table.hpp"

namespace commtune {
namespace {

struct CollectiveName {
  Collective collective;
  std::string_view name;
  std::string_view alias;  // nccl-tests' and the MPI standard's spelling
};
constexpr std::array<CollectiveName, kCollectiveCount> kCollectiveNames{{
    {Collective::AllReduce, "allreduce", "all_reduce"},
    {Collective::AllGather, "allgather", "all_gather"},
    {Collective::Broadcast, "broadcast", "bcast"},
    {Collective::ReduceScatter, "reducescatter", "reduce_scatter"},
}};
static_assert(covers_every_collective(kCollectiveNames), "one name row per collective, in enum order");
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
Enum lookup_value(const NameTable<Enum, N>& table, std::string_view text, std::string_view what,
                  std::initializer_list<std::pair<std::string_view, Enum>> aliases = {}) {
  const std::string key = lowercase(text);
  if (const std::optional<Enum> value = value_in(table, key)) return *value;
  for (const auto& [alias, e] : aliases)
    if (alias == key) return e;
  throw InputError("unknown " + std::string(what) + " " + quote_text(text) + " (known: " + names_in(table) +
                   ")");
}

}  // namespace

std::string_view name_of(Collective c) { return row_of(kCollectiveNames, c).name; }
std::string_view name_of(DataType t) { return name_in(kTypeNames, t); }
std::string_view name_of(ReduceOp op) { return name_in(kOpNames, op); }
std::string_view name_of(Placement p) { return name_in(kPlacementNames, p); }

Collective parse_collective(std::string_view text) {
  const std::string key = lowercase(text);
  std::string known;
  for (const CollectiveName& row : kCollectiveNames) {
    if (key == row.name || key == row.alias) return row.collective;
    known += (known.empty() ? "" : ", ") + std::string(row.name);
  }
  throw InputError("unknown collective " + quote_text(text) + " (known: " + known + ")");
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
    case DataType::Uint8:
      return 1;
    case DataType::Float16:
    case DataType::BFloat16:
      return 2;
    case DataType::Int32:
    case DataType::Uint32:
    case DataType::Float32:
      return 4;
    case DataType::Int64:
    case DataType::Uint64:
    case DataType::Float64:
      return 8;
  }
  return 1;
}

bool is_floating(DataType t) {
  return t == DataType::Float16 || t == DataType::BFloat16 || t == DataType::Float32 ||
         t == DataType::Float64;
}

const std::vector<Collective>& all_collectives() {
  static const std::vector<Collective> all = [] {
    std::vector<Collective> out;
    for (const CollectiveName& row : kCollectiveNames) out.push_back(row.collective);
    return out;
  }();
  return all;
}

}  // namespace commtune
