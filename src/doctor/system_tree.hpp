#pragma once
// Read-only access to a system's files under a root directory: "/" on a live machine, a recorded
// tree (tests/fixtures/systems/NAME) in tests. Every system check reads through this, never
// through absolute paths, so that a test can feed it any machine.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace commtune {

class SystemTree {
 public:
  explicit SystemTree(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path at(const std::string& relative) const { return root_ / relative; }
  // The first line of a file, trimmed; nothing when it cannot be read.
  std::optional<std::string> read_line(const std::filesystem::path& file) const;
  std::optional<std::string> line(const std::string& relative) const { return read_line(at(relative)); }
  // A whole (small) text or binary file, at most `limit` bytes; nothing when it cannot be read.
  std::optional<std::string> read_content(const std::filesystem::path& file,
                                          std::size_t limit = 1 << 20) const;
  std::optional<std::string> content(const std::string& relative) const { return read_content(at(relative)); }
  // Names in a directory, sorted; empty when it does not exist.
  std::vector<std::string> names(const std::string& relative) const;
  bool exists(const std::string& relative) const;

 private:
  std::filesystem::path root_;
};

// A number read from the start of `text` ("16.0 GT/s PCIe" -> 16, "4: ACTIVE" -> 4).
std::optional<double> leading_number(const std::string& text);

}  // namespace commtune
