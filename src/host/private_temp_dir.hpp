#pragma once
// A directory only this user can enter (mkdtemp: mode 0700, a fresh name), under $TMPDIR when it
// is an absolute path, else /tmp; removed with everything in it on destruction. Files created in
// it cannot be a symbolic link someone else planted.
#include <string>

namespace commtune {

class PrivateTempDir {
 public:
  // Throws BackendError when the directory cannot be made.
  explicit PrivateTempDir(const std::string& prefix);
  ~PrivateTempDir();
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace commtune
