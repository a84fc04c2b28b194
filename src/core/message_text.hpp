#pragma once
// Input as an error message may quote it: control characters escaped, long text cut. Every
// message about bad input is one line on stderr, however hostile the input.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace commtune {

inline constexpr std::size_t kQuoteLimit = 80;       // characters of an input a message quotes
inline constexpr std::size_t kMessageLimit = 1000;   // characters of a whole message

// `text` with control characters as \n, \t or \xNN, cut to `max` characters with "..." added.
inline std::string excerpt(std::string_view text, std::size_t max = kQuoteLimit) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (byte < 0x20 || byte == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else out += c;
  }
  return out;
}

// 'text', excerpted: how a message names a value the user gave.
inline std::string quote_text(std::string_view text, std::size_t max = kQuoteLimit) { return "'" + excerpt(text, max) + "'"; }

// A whole message as one line of at most kMessageLimit characters.
inline std::string one_line(std::string_view message) { return excerpt(message, kMessageLimit); }

}  // namespace commtune
