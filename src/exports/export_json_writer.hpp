#pragma once
// The whole ExportPlan as JSON, for tools: env as an object and in order, tuner rows, Open MPI
// rules, summary and notes.
#include "exports/export_writer.hpp"

namespace commtune {

class ExportJsonWriter : public ExportWriter {
 public:
  std::string format() const override { return "json"; }
  std::string file_name(BackendKind) const override { return "commtune-export.json"; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

}  // namespace commtune
