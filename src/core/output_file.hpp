#pragma once
// Every file commtune writes besides the results file (recommendations, exports, compare reports)
// goes through here. What it writes may be sourced by training jobs, so: never over an existing
// file unless asked (--force), never through a symbolic link, never over one of the command's own
// inputs, never into something that is not a regular file, and atomically (a temporary file in
// the same folder, then a rename), with every write error reported.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace commtune {

struct OutputPolicy {
  bool force = false;               // replace an existing regular file
  std::vector<std::string> inputs;  // files this command reads: never written, even with force
};

// Throws InputError naming `path` when the policy refuses it; checks only, writes nothing.
void check_output_path(const std::string& path, const OutputPolicy& policy);

// check_output_path, then writes `content` atomically; InputError naming the path on failure,
// with nothing left behind.
void write_output_file(const std::string& path, const std::string& content, const OutputPolicy& policy);

// Renders into `path` through write_output_file, or onto standard output when `path` is empty;
// a failed write to standard output (a full disk, a closed pipe) is an InputError too.
void emit_output(const std::string& path, const OutputPolicy& policy,
                 const std::function<void(std::ostream&)>& render);

}  // namespace commtune
