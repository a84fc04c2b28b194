#pragma once
// Input as an error message may quote it: control characters escaped, long text cut. Every
// message about bad input is one line on stderr, however hostile the input.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace commtune {

inline constexpr std::size_t kQuoteLimit = 80;      // characters of an input a message quotes
inline constexpr std::size_t kMessageLimit = 1000;  // characters of a whole message

// Length of the valid UTF-8 sequence starting at text[i], or 0 when the byte there starts none.
inline std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  const std::size_t n = byte >= 0xf0 && byte <= 0xf4   ? 4
                        : byte >= 0xe0                 ? 3
                        : byte >= 0xc2 && byte <= 0xdf ? 2
                                                       : 0;
  if (n == 0 || (byte >= 0xf0 && n != 4) || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

// `text` with control characters and bytes that are not UTF-8 as \n, \t or \xNN, cut to `max`
// characters with "..." added.
inline std::string excerpt(std::string_view text, std::size_t max = kQuoteLimit) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      if (const std::size_t n = utf8_length(text, i)) {
        out.append(text.substr(i, n));
        i += n - 1;
        continue;
      }
    }
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (byte < 0x20 || byte >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else
      out += c;
  }
  return out;
}

// 'text', excerpted: how a message names a value the user gave.
inline std::string quote_text(std::string_view text, std::size_t max = kQuoteLimit) {
  return "'" + excerpt(text, max) + "'";
}

// A whole message as one line of at most kMessageLimit characters.
inline std::string one_line(std::string_view message) { return excerpt(message, kMessageLimit); }

}  // namespace commtune
