#include "plan/case_json.hpp"

#include <cstddef>
#include <cstdint>

#include "core/json_fields.hpp"

namespace commtune {

void put_case_fields(nlohmann::json& j, const Case& c) {
  j["collective"] = name_of(c.collective);
  j["bytes"] = c.bytes;
  j["count"] = c.count;
  j["dtype"] = name_of(c.dtype);
  j["op"] = name_of(c.op);
  j["root"] = c.root;
  j["placement"] = name_of(c.placement);
  if (!c.group.is_world()) j["group"] = c.group.name();
}

namespace {

constexpr std::int64_t kMaxCaseBytes = 1ll << 50;  // 1 PiB: far beyond any buffer, short of overflow
constexpr std::int64_t kMaxCaseRoot = 1 << 24;

// A name field through its parse_* function; an unknown name's message names the field.
template <typename Parse>
auto name_field(const nlohmann::json& j, const char* key, const std::string& where, Parse&& parse) {
  const std::string name = field_as<std::string>(j, key, where);
  return parsed_at(member_path(where, key), [&] { return parse(name); });
}

}  // namespace

Case case_fields_from_json(const nlohmann::json& j, const std::string& where) {
  Case c;
  c.collective = name_field(j, "collective", where, [](const std::string& n) { return parse_collective(n); });
  c.bytes = static_cast<std::uint64_t>(
      integer_in(required_field(j, "bytes", where), member_path(where, "bytes"), 1, kMaxCaseBytes));
  c.count = static_cast<std::size_t>(
      integer_in(required_field(j, "count", where), member_path(where, "count"), 0, kMaxCaseBytes));
  c.dtype = name_field(j, "dtype", where, [](const std::string& n) { return parse_data_type(n); });
  c.op = name_field(j, "op", where, [](const std::string& n) { return parse_reduce_op(n); });
  c.root = static_cast<int>(
      integer_in(required_field(j, "root", where), member_path(where, "root"), -1, kMaxCaseRoot));
  c.placement = name_field(j, "placement", where, [](const std::string& n) { return parse_placement(n); });
  if (j.contains("group"))
    c.group = parse_group_spec(field_as<std::string>(j, "group", where), member_path(where, "group"));
  return c;
}

}  // namespace commtune
