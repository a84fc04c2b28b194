#pragma once
// How the worker protocol's lines travel on the supervisor <-> worker socket, for both ends: a
// buffer that frames the bytes read so far into lines, one read, and a write of a whole line.
#include <optional>
#include <string>
#include <string_view>

namespace commtune {

class LineBuffer {
 public:
  void append(const char* data, std::size_t size) { buffer_.append(data, size); }
  // The oldest complete line (without its '\n'), if one has arrived.
  std::optional<std::string> take_line();

 private:
  std::string buffer_;
};

enum class ReadStatus {
  Read,    // bytes were appended
  Empty,   // a non-blocking socket has nothing now
  Closed,  // end-of-file or an error: the peer is gone
};

// One read(2) into `into` (retried on EINTR).
ReadStatus read_some(int fd, LineBuffer& into);

// Sends all of `line`, waiting while the socket is full; false when the peer is gone.
bool write_all(int fd, std::string_view line);

}  // namespace commtune
