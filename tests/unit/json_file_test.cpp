#include <gtest/gtest.h>
#include <sys/stat.h>

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
  EXPECT_EQ(message_of("/nonexistent/x.json", "results file"),
            "cannot open results file '/nonexistent/x.json': No such file or directory");
  EXPECT_EQ(message_of("/nonexistent/x.json", ""),
            "cannot open '/nonexistent/x.json': No such file or directory");
  const std::string path = ::testing::TempDir() + "/json-file-broken.json";
  std::ofstream(path) << "{not json";
  EXPECT_EQ(message_of(path, "config file").rfind(path + ": not valid JSON: ", 0), 0u);
  std::filesystem::remove(path);
}

std::string parse_message(const std::string& text) {
  try {
    parse_json_text(text, "t.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonFile, OnlyRegularFilesAreOpened) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(message_of(dir, "config file"), "config file '" + dir + "' is a directory, not a regular file");
  const std::string fifo = dir + "/json-file-fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(message_of(fifo, "config file"),
            "config file '" + fifo + "' is a FIFO, not a regular file");  // no hang
  std::filesystem::remove(fifo);
  EXPECT_EQ(message_of("/dev/null", ""), "'/dev/null' is a character device, not a regular file");
  EXPECT_EQ(message_of("/proc/self/mem", "results file"),
            "cannot read results file '/proc/self/mem': Input/output error");
}

TEST(JsonFile, DeepNestingIsRefusedWithoutRecursion) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string message = parse_message(deep);
  EXPECT_EQ(message.rfind("t.json: values nest deeper than 64 levels (at [0][0]", 0), 0u) << message;
  EXPECT_LT(message.size(), 200u);
  EXPECT_NO_THROW(parse_json_text(std::string(64, '[') + std::string(64, ']'), "t.json"));
}

TEST(JsonFile, AKeyTwiceInOneObjectIsRefusedWithItsPlace) {
  EXPECT_EQ(parse_message(R"({"settings": [{"name": "a"}, {"knobs": {"K": 1, "K": 2}}]})"),
            "t.json: settings[1].knobs: key 'K' appears twice in one object");
  EXPECT_EQ(parse_message(R"({"a": 1, "a": 1})"), "t.json: key 'a' appears twice in one object");
  EXPECT_NO_THROW(parse_json_text(R"({"a": {"k": 1}, "b": {"k": 1}})", "t.json"));
}

TEST(JsonFile, NumbersBeyondADoubleAndLongTokensGiveShortMessages) {
  EXPECT_EQ(parse_message(R"({"factor": 1e400})"), "t.json: unusable JSON: number overflow parsing '1e400'");
  const std::string message = parse_message("[\"" + std::string(100000, 'x'));
  EXPECT_EQ(message.rfind("t.json: not valid JSON: ", 0), 0u) << message;
  EXPECT_LT(message.size(), 300u);
}

}  // namespace
}  // namespace commtune
