#include "doctor/system_tree.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace commtune {

namespace fs = std::filesystem;

std::optional<std::string> SystemTree::read_line(const fs::path& file) const {
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  const auto first = text.find_first_not_of(" \t\r");
  const auto last = text.find_last_not_of(" \t\r");
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

std::optional<std::string> SystemTree::read_content(const fs::path& file, std::size_t limit) const {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string data(limit, '\0');
  in.read(data.data(), static_cast<std::streamsize>(limit));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

std::vector<std::string> SystemTree::names(const std::string& relative) const {
  std::vector<std::string> out;
  std::error_code error;
  for (fs::directory_iterator it(at(relative), error), end; !error && it != end; it.increment(error))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool SystemTree::exists(const std::string& relative) const {
  std::error_code error;
  return fs::exists(at(relative), error);
}

std::optional<double> leading_number(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin) return std::nullopt;
  return value;
}

}  // namespace commtune
