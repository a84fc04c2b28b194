#include "backend/nccl/supervisor/plugin_record_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "core/message_text.hpp"
#include "knobs/nccl_functions.hpp"

namespace commtune {
namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

template <typename T>
bool number(std::string_view text, T low, T high, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && out >= low && out <= high;
}

// Fields 4..8: channels (-1 or 1..1024), nNodes and nRanks (>= 1), numPipeOps (>= 1), regBuff (0 or 1).
std::string check_counts(const std::vector<std::string_view>& f, int& channels) {
  std::int64_t value = 0;
  if (!number<int>(f[4], -1, kMaxRecordedChannels, channels) || channels == 0)
    return "channels is not -1 or 1.." + std::to_string(kMaxRecordedChannels);
  if (!number<std::int64_t>(f[5], 1, std::int64_t{1} << 24, value)) return "nNodes is not a count";
  if (!number<std::int64_t>(f[6], 1, std::int64_t{1} << 24, value)) return "nRanks is not a count";
  if (!number<std::int64_t>(f[7], 1, std::int64_t{1} << 24, value)) return "numPipeOps is not a count";
  if (!number<std::int64_t>(f[8], 0, 1, value)) return "regBuff is not 0 or 1";
  return "";
}

}  // namespace

std::optional<RecordLine> parse_record_line(std::string_view line, std::string& error) {
  const std::vector<std::string_view> f = split_fields(line);
  if (f.size() != 9) {
    error = std::to_string(f.size()) + " fields instead of 9";
    return std::nullopt;
  }
  RecordLine r;
  if (!is_nccl_function(f[0])) {
    error = "unknown collective " + quote_text(f[0]);
    return std::nullopt;
  }
  r.collective = std::string(f[0]);
  if (!number<std::uint64_t>(f[1], 0, std::uint64_t{1} << 50, r.bytes)) {
    error = "bytes is not a size";
    return std::nullopt;
  }
  const bool none_available = f[2] == "-1" && f[3] == "-1";
  if (!none_available && (!is_nccl_algorithm_token(f[2]) || !is_nccl_protocol_token(f[3]))) {
    error = "unknown algorithm or protocol " + quote_text(std::string(f[2]) + "," + std::string(f[3]));
    return std::nullopt;
  }
  int channels = -1;
  error = check_counts(f, channels);
  if (!error.empty()) return std::nullopt;
  r.choice = none_available ? unrecorded_choice("every entry of NCCL's cost table was unavailable")
                            : recorded_choice(std::string(f[2]), std::string(f[3]), channels);
  return r;
}

NcclChoice PluginRecordFile::choice_for(Collective collective, std::uint64_t bytes) {
  if (damage_.empty()) read_appended();
  if (!damage_.empty()) return unrecorded_choice(damage_);
  const auto it = picks_.find({std::string(name_of(collective)), bytes});
  if (it != picks_.end()) return it->second;
  if (!missing_.empty()) return unrecorded_choice(missing_);
  if (lines_ == 0) return unrecorded_choice("the record of commtune's tuner plugin is empty");
  return unrecorded_choice("the record of commtune's tuner plugin has no line for " +
                           std::string(name_of(collective)) + " of " + std::to_string(bytes) + " bytes");
}

void PluginRecordFile::read_appended() {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int why = errno;
    if (why == ENOENT)
      missing_ = "no record: NCCL did not load commtune's tuner plugin";
    else
      damage_ = "cannot read the record of commtune's tuner plugin: " + std::string(std::strerror(why));
    return;
  }
  missing_.clear();
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    damage_ = "the record of commtune's tuner plugin is not a regular file";
  } else if (static_cast<std::uint64_t>(info.st_size) > kMaxRecordBytes) {
    damage_ =
        "the record of commtune's tuner plugin is larger than " + std::to_string(kMaxRecordBytes) + " bytes";
  } else if (static_cast<std::uint64_t>(info.st_size) > offset_) {
    std::string chunk(static_cast<std::size_t>(static_cast<std::uint64_t>(info.st_size) - offset_), '\0');
    const ssize_t got = ::pread(fd, chunk.data(), chunk.size(), static_cast<off_t>(offset_));
    if (got < 0)
      damage_ = "cannot read the record of commtune's tuner plugin: " + std::string(std::strerror(errno));
    else {
      offset_ += static_cast<std::uint64_t>(got);
      pending_.append(chunk, 0, static_cast<std::size_t>(got));
      take_lines();
    }
  }
  ::close(fd);
}

void PluginRecordFile::take_lines() {
  std::size_t start = 0;
  for (std::size_t end; damage_.empty() && (end = pending_.find('\n', start)) != std::string::npos;
       start = end + 1) {
    const std::string_view line(pending_.data() + start, end - start);
    ++lines_;
    std::string error;
    const std::optional<RecordLine> r =
        line.size() > kMaxRecordLine ? std::nullopt : parse_record_line(line, error);
    if (!r) {
      damage_ =
          "line " + std::to_string(lines_) + " of the record of commtune's tuner plugin is malformed (" +
          (error.empty() ? "longer than " + std::to_string(kMaxRecordLine) + " characters" : error) + ")";
      return;
    }
    picks_.emplace(std::make_pair(r->collective, r->bytes), r->choice);
  }
  pending_.erase(0, start);
  if (pending_.size() > kMaxRecordLine)
    damage_ = "the record of commtune's tuner plugin has a line longer than " +
              std::to_string(kMaxRecordLine) + " characters";
}

}  // namespace commtune
