#include "html/escape.hpp"

namespace commtune::html {
namespace {

const char* entity_of(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&#39;";
    default:
      return nullptr;
  }
}

bool is_control(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f; }

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (const char* entity = entity_of(c))
      out += entity;
    else if (is_control(static_cast<unsigned char>(c)))
      out += "\xEF\xBF\xBD";
    else
      out += c;
  }
  return out;
}

}  // namespace commtune::html
