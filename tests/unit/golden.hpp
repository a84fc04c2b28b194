#pragma once
// Golden-output check: compares text with tests/golden/NAME. With COMMTUNE_UPDATE_GOLDEN=1 in the
// environment it rewrites the file instead (then review the diff before committing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace commtune::testing {

inline std::string golden_path(const std::string& name) {
  return std::string(COMMTUNE_SOURCE_DIR) + "/tests/golden/" + name;
}

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  if (std::getenv("COMMTUNE_UPDATE_GOLDEN")) {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with COMMTUNE_UPDATE_GOLDEN=1 to create it)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "output differs from " << path;
}

}  // namespace commtune::testing
