#include "writers/json_results_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "measure/bandwidth.hpp"
#include "ceiling/ceiling.hpp"
#include "core/message_text.hpp"
#include "results/results_json.hpp"

namespace commtune {

namespace fs = std::filesystem;

void check_results_path(const std::string& path) {
  const std::string label = "results file " + quote_text(path, 200) + " (--out)";
  const fs::path p(path);
  if (path.empty() || !p.has_filename() || p.filename() == "." || p.filename() == "..")
    throw InputError(label + ": is a directory path; give a file name");
  std::error_code ec;
  const fs::file_status status = fs::status(p, ec);
  if (fs::is_directory(status)) throw InputError(label + ": is a directory; give a file name");
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(label + ": exists and is not a regular file (a device, FIFO or socket)");
}

std::string unused_path(const std::string& wanted) {
  check_results_path(wanted);
  if (!fs::exists(wanted)) return wanted;
  const fs::path p(wanted);
  for (int n = 1;; ++n) {
    fs::path candidate =
        p.parent_path() / (p.stem().string() + "." + std::to_string(n) + p.extension().string());
    if (!fs::exists(candidate)) return candidate.string();
  }
}

JsonResultsWriter::JsonResultsWriter(std::string path) {
  check_results_path(path);
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    path_ = unused_path(path);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) throw InputError("cannot create results file '" + path_ + "': " + std::strerror(errno));
}

JsonResultsWriter::~JsonResultsWriter() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

void write_all_at(int fd, const std::string& text, std::uint64_t offset, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pwrite(fd, text.data() + done, text.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("writing results file '" + path + "' failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

std::string closing(bool complete) {
  return std::string("\n  ],\n  \"complete\": ") + (complete ? "true" : "false") + "\n}\n";
}

}  // namespace

void JsonResultsWriter::begin(const RunHeader& header) {
  ceiling_ = ceiling_from_provenance(header.provenance);
  nlohmann::json head{{"schema_version", kResultsSchemaVersion}, {"backend", name_of(header.backend)},
                      {"provenance", header.provenance},         {"sweep", to_json(header.plan.options)},
                      {"settings", nlohmann::json::array()},     {"warnings", header.plan.warnings}};
  for (const auto& s : header.plan.settings) head["settings"].push_back(to_json(s));
  std::string text = head.dump(2);
  text.pop_back();  // drop the closing brace: the cases list and the trailer follow
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text += ",\n  \"cases\": [";
  write_all_at(fd_, text, 0, path_);
  cases_end_ = text.size();
  write_at_end_of_cases("", false);
}

void JsonResultsWriter::write_at_end_of_cases(const std::string& cases_part, bool complete) {
  const std::string text = cases_part + closing(complete);
  write_all_at(fd_, text, cases_end_, path_);
  cases_end_ += cases_part.size();
  // "true" is shorter than "false": drop whatever an earlier, longer trailer left behind.
  if (::ftruncate(fd_, static_cast<off_t>(cases_end_ + text.size() - cases_part.size())) != 0)
    throw Error("truncating results file '" + path_ + "' failed: " + std::strerror(errno));
}

void JsonResultsWriter::case_finished(const CaseResult& result) {
  nlohmann::json j = to_json(result);
  if (ceiling_ && result.measured() && measures_bandwidth(result.nranks))
    j["efficiency"] = efficiency(result.busbw_gbps, *ceiling_);  // none at one rank: nothing traveled
  const std::string entry = (first_case_ ? "\n    " : ",\n    ") + j.dump();
  first_case_ = false;
  write_at_end_of_cases(entry, false);
}

void JsonResultsWriter::end(const RunSummary& summary) {
  write_at_end_of_cases("", summary.complete);
  ::fsync(fd_);
}

}  // namespace commtune
