#include "exports/export_writer.hpp"

namespace commtune {

std::vector<std::unique_ptr<ExportWriter>> make_export_writers() {
  std::vector<std::unique_ptr<ExportWriter>> writers;
  writers.push_back(std::make_unique<ShellEnvWriter>());
  writers.push_back(std::make_unique<ConfWriter>());
  writers.push_back(std::make_unique<DockerEnvWriter>());
  writers.push_back(std::make_unique<ExportJsonWriter>());
  writers.push_back(std::make_unique<NcclTunerCsvWriter>());
  writers.push_back(std::make_unique<OmpiRulesWriter>());
  return writers;
}

std::string comment_text(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

}  // namespace commtune
