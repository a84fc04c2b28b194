#include "core/output_file.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "core/errors.hpp"

namespace commtune {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw InputError("cannot write '" + path + "': " + why);
}

bool is_an_input(const fs::path& target, const OutputPolicy& policy) {
  for (const auto& input : policy.inputs) {
    std::error_code error;
    if (fs::equivalent(target, input, error)) return true;
  }
  return false;
}

// Writes all of `content` to a fresh temporary file next to `path`; returns its name.
std::string write_temporary(const std::string& path, const std::string& content) {
  const fs::path target(path);
  std::string pattern = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
  if (target.parent_path().empty()) pattern = "." + target.filename().string() + ".XXXXXX";
  const int fd = mkstemp(pattern.data());
  if (fd < 0) refuse(path, std::strerror(errno));
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(n < 0 ? errno : ENOSPC);
      close(fd);
      unlink(pattern.c_str());
      refuse(path, why);
    }
    written += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    const std::string why = std::strerror(errno);
    unlink(pattern.c_str());
    refuse(path, why);
  }
  return pattern;
}

}  // namespace

void check_output_path(const std::string& path, const OutputPolicy& policy) {
  if (path.empty()) refuse(path, "empty path");
  std::error_code error;
  const fs::file_status link = fs::symlink_status(path, error);
  if (error && link.type() != fs::file_type::not_found) refuse(path, error.message());
  if (link.type() == fs::file_type::not_found) {
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, error))
      refuse(path, "folder '" + parent.string() + "' does not exist");
    return;
  }
  if (fs::is_symlink(link)) refuse(path, "it is a symbolic link (commtune never writes through one)");
  if (!fs::is_regular_file(link)) refuse(path, "it exists and is not a regular file");
  if (is_an_input(path, policy)) refuse(path, "it is one of this command's inputs");
  if (!policy.force) refuse(path, "it exists (--force replaces it)");
}

void emit_output(const std::string& path, const OutputPolicy& policy,
                 const std::function<void(std::ostream&)>& render) {
  if (!path.empty()) check_output_path(path, policy);  // before rendering: refuse early, write nothing
  std::ostringstream text;
  render(text);
  if (!path.empty()) return write_output_file(path, text.str(), policy);
  std::cout << text.str() << std::flush;
  if (!std::cout) throw InputError("cannot write to standard output");
}

void write_output_file(const std::string& path, const std::string& content, const OutputPolicy& policy) {
  check_output_path(path, policy);
  const std::string temporary = write_temporary(path, content);
  // Without --force the final step must not replace a file that appeared meanwhile.
  const unsigned flags = policy.force ? 0 : RENAME_NOREPLACE;
  if (renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(), flags) != 0) {
    const std::string why = errno == EEXIST ? "it exists (--force replaces it)" : std::strerror(errno);
    unlink(temporary.c_str());
    refuse(path, why);
  }
}

}  // namespace commtune
