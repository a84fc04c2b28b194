#include "ceiling/ceiling.hpp"

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/text_format.hpp"

namespace commtune {

double efficiency(double busbw_gbps, const Ceiling& ceiling) {
  return ceiling.gbps > 0 ? busbw_gbps / ceiling.gbps : 0;
}

std::string efficiency_verdict(double busbw_gbps, const Ceiling& c) {
  const double e = efficiency(busbw_gbps, c);
  std::string line = printf_string("busbw %.1f GB/s is %.1f%% of the %s ceiling of %.1f GB/s (%s)",
                                   busbw_gbps, e * 100, c.path.c_str(), c.gbps, c.basis.c_str());
  if (c.expected_high <= 0) return line + "; no published range for this path";
  line += printf_string("; expected about %.0f-%.0f%% (%s): ", c.expected_low * 100, c.expected_high * 100,
                        c.expected_source.c_str());
  if (e < c.expected_low * 0.9) return line + "well below the expected range";
  if (e < c.expected_low) return line + "a little below the expected range";
  if (e > 1.0) return line + "above the line rate (in-network reduction, NVLS or SHARP, can do that)";
  return line + "as expected";
}

nlohmann::json to_json(const Ceiling& c) {
  nlohmann::json j{{"gbps", c.gbps}, {"path", c.path}, {"basis", c.basis}};
  if (c.expected_high > 0) {
    j["expected_low"] = c.expected_low;
    j["expected_high"] = c.expected_high;
    j["expected_source"] = c.expected_source;
  }
  return j;
}

Ceiling ceiling_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) bad_value(where, "an object {gbps, path, basis}", j);
  Ceiling c;
  c.gbps = number_in(required_field(j, "gbps", where), member_path(where, "gbps"), 1e-6, 1e6);
  c.path = field_as<std::string>(j, "path", where);
  c.basis = field_as<std::string>(j, "basis", where);
  if (!j.contains("expected_high")) return c;
  c.expected_low =
      number_in(required_field(j, "expected_low", where), member_path(where, "expected_low"), 0, 10);
  c.expected_high =
      number_in(required_field(j, "expected_high", where), member_path(where, "expected_high"), 0, 10);
  if (c.expected_low > c.expected_high)
    throw InputError(member_path(where, "expected_low") + ": is above expected_high");
  c.expected_source = field_as<std::string>(j, "expected_source", where);
  return c;
}

std::optional<Ceiling> ceiling_from_provenance(const nlohmann::json& provenance) {
  if (!provenance.is_object() || !provenance.contains("ceiling")) return std::nullopt;
  try {
    return ceiling_from_json(provenance["ceiling"], "provenance.ceiling");
  } catch (const InputError&) {
    return std::nullopt;  // the reader refuses such a file before any writer sees it
  }
}

}  // namespace commtune
