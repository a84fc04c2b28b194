#pragma once
// KEY=VALUE environment files: a shell file to source (`export KEY='VALUE'`), a conf file
// (NCCL_CONF_FILE or Open MPI's mca-params.conf) and a docker --env-file (no quoting, `#` comments). Values
// were checked inert by the ExportPlan; the shell file quotes them anyway.
#include "exports/export_writer.hpp"

namespace commtune {

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

}  // namespace commtune
