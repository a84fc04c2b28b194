#pragma once
// The one reader of JSON input (configs, results, recommendations). It validates before it acts:
// only a regular file is opened (a FIFO or a device would block or never end), at most
// kMaxJsonFileBytes are read, values nest at most kMaxJsonDepth deep, no object names a key twice
// (a knob given twice in one setting), and every number fits a double. Anything else is an
// InputError naming the file, quoting at most a short excerpt of the input.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace commtune {

inline constexpr std::size_t kMaxJsonDepth = 64;
inline constexpr std::uint64_t kMaxJsonFileBytes = 256ull << 20;

// `what` names the kind of file in the messages ("config file" -> "cannot open config file 'PATH':
// REASON"); empty gives "cannot open 'PATH': REASON". Invalid JSON: "PATH: not valid JSON: ...".
nlohmann::json read_json_file(const std::string& path, std::string_view what = {});

// The same checks on text already in memory; `origin` starts every message.
nlohmann::json parse_json_text(std::string_view text, const std::string& origin);

}  // namespace commtune
