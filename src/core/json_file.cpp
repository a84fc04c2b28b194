#include "core/json_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

using nlohmann::json;

std::string file_label(const std::string& path, std::string_view what) {
  return (what.empty() ? std::string() : std::string(what) + " ") + "'" + excerpt(path, 200) + "'";
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void require_regular(const struct stat& info, const std::string& label) {
  if (!S_ISREG(info.st_mode))
    throw InputError(label + " is " + kind_of(info.st_mode) + ", not a regular file");
  if (static_cast<std::uint64_t>(info.st_size) > kMaxJsonFileBytes)
    throw InputError(label + " is " + std::to_string(info.st_size) + " bytes; at most " +
                     std::to_string(kMaxJsonFileBytes >> 20) + " MiB are read");
}

// Closes the descriptor on every path out.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string read_all(int fd, const std::string& label) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError("cannot read " + label + ": " + std::strerror(errno));
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    // Files such as those of /proc say size 0 and can be long: the limit holds while reading too.
    if (text.size() > kMaxJsonFileBytes)
      throw InputError(label + " is longer than " + std::to_string(kMaxJsonFileBytes >> 20) + " MiB");
  }
}

// Where the parser is: one frame per open object or list, so that a message can say where a
// problem is (settings[1].knobs) and a repeated key is seen in the object that repeats it.
struct Frame {
  bool object = false;
  std::set<std::string> keys;
  std::string key;        // object: the member being read
  std::size_t index = 0;  // list: the element being read
};

class ShapeCheck {
 public:
  explicit ShapeCheck(const std::string& origin) : origin_(origin) {}

  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open(true);
        break;
      case json::parse_event_t::array_start:
        open(false);
        break;
      case json::parse_event_t::key:
        key(parsed.get<std::string>());
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  }

 private:
  void open(bool object) {
    if (frames_.size() >= kMaxJsonDepth)
      throw InputError(origin_ + ": values nest deeper than " + std::to_string(kMaxJsonDepth) +
                       " levels (at " + excerpt(where(), kQuoteLimit) + ")");
    frames_.push_back(Frame{object, {}, {}, 0});
  }

  void key(const std::string& name) {
    Frame& frame = frames_.back();
    if (!frame.keys.insert(name).second) {
      const std::string in = frames_.size() > 1 ? excerpt(where_parent(), kQuoteLimit) + ": " : "";
      throw InputError(origin_ + ": " + in + "key " + quote_text(name) + " appears twice in one object");
    }
    frame.key = name;
  }

  void element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  // The path of the element being read: a.b[3].c
  std::string path_of(std::size_t frames) const {
    std::string path;
    for (std::size_t i = 0; i < frames; ++i) {
      const Frame& f = frames_[i];
      if (f.object)
        path += (path.empty() ? "" : ".") + f.key;
      else
        path += "[" + std::to_string(f.index) + "]";
    }
    return path.empty() ? "the top level" : path;
  }
  std::string where() const { return path_of(frames_.size()); }
  std::string where_parent() const { return path_of(frames_.size() - 1); }

  const std::string& origin_;
  std::vector<Frame> frames_;
};

// nlohmann's text without its "[json.exception.parse_error.101] " tag, cut short.
std::string parser_text(const json::exception& e) {
  std::string_view text = e.what();
  if (const auto tag_end = text.find("] ");
      text.rfind("[json.exception.", 0) == 0 && tag_end != std::string_view::npos)
    text.remove_prefix(tag_end + 2);
  return excerpt(text, 200);
}

}  // namespace

json parse_json_text(std::string_view text, const std::string& origin) {
  // JSON text never holds a NUL byte (strings escape it); the parser would take it for the end.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(origin + ": not valid JSON: a NUL byte at offset " + std::to_string(nul));
  ShapeCheck check(origin);
  try {
    return json::parse(text.begin(), text.end(), std::ref(check));
  } catch (const json::parse_error& e) {
    throw InputError(origin + ": not valid JSON: " + parser_text(e));
  } catch (const json::exception& e) {
    throw InputError(origin + ": unusable JSON: " + parser_text(e));  // number overflow: 1e400
  }
}

json read_json_file(const std::string& path, std::string_view what) {
  const std::string label = file_label(path, what);
  struct stat info {};
  // Checked before opening: opening a FIFO for reading would block until a writer comes.
  if (::stat(path.c_str(), &info) != 0)
    throw InputError("cannot open " + label + ": " + std::strerror(errno));
  require_regular(info, label);
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw InputError("cannot open " + label + ": " + std::strerror(errno));
  struct stat opened {};
  if (::fstat(file.fd, &opened) != 0) throw InputError("cannot read " + label + ": " + std::strerror(errno));
  require_regular(opened, label);  // the path may have been replaced in between
  return parse_json_text(read_all(file.fd, label), excerpt(path, 200));
}

}  // namespace commtune
