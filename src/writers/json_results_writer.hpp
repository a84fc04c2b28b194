#pragma once
// Writes the results JSON as cases finish. The file is valid JSON after every case: each case is
// written together with the closing brackets in one write at the end of the previous case, so
// Ctrl-C or a crash leaves every finished case readable. Never overwrites an existing file.
#include <cstdint>
#include <optional>
#include <string>

#include "ceiling/ceiling.hpp"
#include "writers/result_sink.hpp"

namespace commtune {

// Refuses a path that cannot name a results file, before anything is created: a directory (or a
// name ending in '/'), or an existing path that is not a regular file (/dev/full, a FIFO). The
// InputError names the path and, for the sweep, the flag (--out).
void check_results_path(const std::string& path);

// `wanted` if free, else wanted with .1, .2, ... inserted before the extension (check_results_path first).
std::string unused_path(const std::string& wanted);

class JsonResultsWriter : public ResultSink {
 public:
  explicit JsonResultsWriter(std::string path);  // path is made unique and its folder created
  ~JsonResultsWriter() override;
  JsonResultsWriter(const JsonResultsWriter&) = delete;
  JsonResultsWriter& operator=(const JsonResultsWriter&) = delete;

  const std::string& path() const { return path_; }
  void begin(const RunHeader& header) override;
  void case_finished(const CaseResult& result) override;
  void end(const RunSummary& summary) override;

 private:
  std::optional<Ceiling> ceiling_;  // each measured case gets its efficiency against it
  void write_at_end_of_cases(const std::string& cases_part, bool complete);

  std::string path_;
  int fd_ = -1;
  std::uint64_t cases_end_ = 0;  // file offset just after the last case written
  bool first_case_ = true;
};

}  // namespace commtune
