#pragma once
// Pluggable export formats: each renders an ExportPlan (already validated) to a stream. Adding
// a format is one class and one line in make_export_writers().
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tune/export_plan.hpp"

namespace commtune {

class ExportWriter {
 public:
  virtual ~ExportWriter() = default;
  virtual std::string format() const = 0;                        // the --format name
  virtual std::string file_name(BackendKind backend) const = 0;  // its file under --out-dir
  virtual bool applies_to(BackendKind /*backend*/) const { return true; }
  virtual void write(const ExportPlan& plan, std::ostream& out) const = 0;
};

// Every format: shell, conf, docker, json, nccl-tuner, ompi-rules.
std::vector<std::unique_ptr<ExportWriter>> make_export_writers();

// A comment line's text with anything that could end the comment (newlines, control
// characters) replaced by spaces.
std::string comment_text(const std::string& text);

}  // namespace commtune
