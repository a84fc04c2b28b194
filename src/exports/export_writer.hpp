#pragma once
// Pluggable export formats: each renders an ExportPlan (already validated) to a stream. Adding
// a format is one class (declared here, defined in its group's .cpp) and one line in
// make_export_writers(). The formats: the environment files (env_file_writers.cpp), the per-size
// rules files (rules_file_writers.cpp) and the JSON export (export_json_writer.cpp).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/backend_kind.hpp"
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

// KEY=VALUE environment files: a shell file to source (`export KEY='VALUE'`), a conf file
// (NCCL_CONF_FILE or Open MPI's mca-params.conf) and a docker --env-file (no quoting, `#` comments). Values
// were checked inert by the ExportPlan; the shell file quotes them anyway.
class ShellEnvWriter : public ExportWriter {
 public:
  std::string format() const override { return "shell"; }
  std::string file_name(BackendKind) const override { return "commtune.env.sh"; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

// NCCL: KEY=VALUE lines for NCCL_CONF_FILE. Open MPI: `name = value` lines of an
// mca-params.conf ($HOME/.openmpi/mca-params.conf), the OMPI_MCA_ prefix dropped.
class ConfWriter : public ExportWriter {
 public:
  std::string format() const override { return "conf"; }
  std::string file_name(BackendKind backend) const override {
    return std::string(traits_of(backend).env_file);
  }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

class DockerEnvWriter : public ExportWriter {
 public:
  std::string format() const override { return "docker"; }
  std::string file_name(BackendKind) const override { return "docker.env"; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

// Single-quoted for POSIX shells: 'it'\''s' for a value containing a quote.
std::string shell_quote(const std::string& value);

// Per-size rules files. NCCL tuner CSV in the format of NCCL's example tuner plugin:
// `collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff`,
// lowercase tokens, `#` comments. Open MPI coll/tuned dynamic rules file (4.x layout: number of
// collectives; per collective its id, number of comm sizes; per comm size the size, number of
// message sizes; per message size `bytes algorithm fanout segsize`), used with
// OMPI_MCA_coll_tuned_use_dynamic_rules=1 and OMPI_MCA_coll_tuned_dynamic_rules_filename.
inline constexpr const char* kTunerPluginFileName = "libnccl-tuner-commtune.so";

class NcclTunerCsvWriter : public ExportWriter {
 public:
  std::string format() const override { return "nccl-tuner"; }
  std::string file_name(BackendKind) const override { return "nccl_tuner.conf"; }
  bool applies_to(BackendKind backend) const override { return backend == BackendKind::Nccl; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

class OmpiRulesWriter : public ExportWriter {
 public:
  std::string format() const override { return "ompi-rules"; }
  std::string file_name(BackendKind) const override { return "ompi-coll-rules.conf"; }
  bool applies_to(BackendKind backend) const override { return backend == BackendKind::Mpi; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

// The whole ExportPlan as JSON, for tools: env as an object and in order, tuner rows, Open MPI
// rules, summary and notes.
class ExportJsonWriter : public ExportWriter {
 public:
  std::string format() const override { return "json"; }
  std::string file_name(BackendKind) const override { return "commtune-export.json"; }
  void write(const ExportPlan& plan, std::ostream& out) const override;
};

}  // namespace commtune
