#pragma once
// The vocabulary of a case: which collective, on what element type, with which reduction,
// in place or not. Names are nccl-tests' spellings; parse_* throw InputError on unknown names.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace commtune {

enum class Collective { AllReduce, AllGather, Broadcast, ReduceScatter };
// The last collective: a new one goes after it and moves this line (docs/architecture.md, "A new
// collective"); every table keyed by Collective is checked against the count (core/collective_table).
inline constexpr Collective kLastCollective = Collective::ReduceScatter;
inline constexpr std::size_t kCollectiveCount = static_cast<std::size_t>(kLastCollective) + 1;
enum class DataType { Int8, Uint8, Int32, Uint32, Int64, Uint64, Float16, BFloat16, Float32, Float64 };
enum class ReduceOp { Sum, Prod, Max, Min };
enum class Placement { OutOfPlace, InPlace };

std::string_view name_of(Collective c);
std::string_view name_of(DataType t);
std::string_view name_of(ReduceOp op);
std::string_view name_of(Placement p);

Collective parse_collective(std::string_view text);
DataType parse_data_type(std::string_view text);
ReduceOp parse_reduce_op(std::string_view text);
Placement parse_placement(std::string_view text);

std::size_t size_of(DataType t);
bool is_floating(DataType t);

const std::vector<Collective>& all_collectives();

}  // namespace commtune
