#include "exports/export_writer.hpp"

namespace commtune {
namespace {

void write_header(const ExportPlan& plan, std::ostream& out, const std::string& how) {
  for (const auto& line : plan.summary) out << "# " << comment_text(line) << "\n";
  for (const auto& note : plan.notes) out << "# note: " << comment_text(note) << "\n";
  for (const auto& warning : plan.warnings) out << "# WARNING: " << comment_text(warning) << "\n";
  out << "# " << how << "\n";
}

void write_plain(const ExportPlan& plan, std::ostream& out) {
  for (const auto& e : plan.env) out << e.name << "=" << e.value << "\n";
}

}  // namespace

std::string shell_quote(const std::string& value) {
  std::string out = "'";
  for (char c : value) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void ShellEnvWriter::write(const ExportPlan& plan, std::ostream& out) const {
  write_header(plan, out, "use: source this file (bash, sh) before launching the job");
  for (const auto& e : plan.env) out << "export " << e.name << "=" << shell_quote(e.value) << "\n";
}

void ConfWriter::write(const ExportPlan& plan, std::ostream& out) const {
  switch (plan.backend) {
    case BackendKind::Nccl:
      write_header(plan, out, "use: NCCL_CONF_FILE=/path/to/this/file (or copy to /etc/nccl.conf)");
      write_plain(plan, out);
      return;
    case BackendKind::Mpi:
      break;
  }
  write_header(
      plan, out,
      "use: copy to $HOME/.openmpi/mca-params.conf (or OMPI_MCA_mca_param_files=/path/to/this/file)");
  const std::string prefix = "OMPI_MCA_";
  for (const auto& e : plan.env)
    if (e.name.rfind(prefix, 0) == 0) out << e.name.substr(prefix.size()) << " = " << e.value << "\n";
}

void DockerEnvWriter::write(const ExportPlan& plan, std::ostream& out) const {
  write_header(plan, out, "use: docker run --env-file this-file ...");
  write_plain(plan, out);
}

}  // namespace commtune
