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
}

Case case_fields_from_json(const nlohmann::json& j, const std::string& where) {
  Case c;
  c.collective = parse_collective(field_as<std::string>(j, "collective", where));
  c.bytes = field_as<std::uint64_t>(j, "bytes", where);
  c.count = field_as<std::size_t>(j, "count", where);
  c.dtype = parse_data_type(field_as<std::string>(j, "dtype", where));
  c.op = parse_reduce_op(field_as<std::string>(j, "op", where));
  c.root = field_as<int>(j, "root", where);
  c.placement = parse_placement(field_as<std::string>(j, "placement", where));
  return c;
}

}  // namespace commtune
