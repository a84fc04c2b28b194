#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace commtune {
namespace {

std::string message_of(const std::string& path, std::string_view what) {
  try {
    read_json_file(path, what);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonFile, ReadsAWholeFile) {
  const std::string path = ::testing::TempDir() + "/json-file-good.json";
  std::ofstream(path) << R"({"a": [1, 2]})";
  EXPECT_EQ(read_json_file(path)["a"][1], 2);
  std::filesystem::remove(path);
}

TEST(JsonFile, MissingOrBrokenFilesAreInputErrorsNamingTheFile) {
  EXPECT_EQ(message_of("/nonexistent/x.json", "results file"), "cannot open results file '/nonexistent/x.json'");
  EXPECT_EQ(message_of("/nonexistent/x.json", ""), "cannot open '/nonexistent/x.json'");
  const std::string path = ::testing::TempDir() + "/json-file-broken.json";
  std::ofstream(path) << "{not json";
  EXPECT_EQ(message_of(path, "config file").rfind(path + ": not valid JSON: ", 0), 0u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace commtune
