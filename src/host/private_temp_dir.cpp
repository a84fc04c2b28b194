#include "host/private_temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/errors.hpp"

namespace commtune {

PrivateTempDir::PrivateTempDir(const std::string& prefix) {
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string base = tmpdir != nullptr && tmpdir[0] == '/' ? tmpdir : "/tmp";
  std::string pattern = base + "/" + prefix + "-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr)
    throw BackendError("cannot create a private directory " + pattern + ": " + std::strerror(errno));
  path_ = name.data();
}

PrivateTempDir::~PrivateTempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace commtune
