#include "exports/export_writer.hpp"

#include <algorithm>
#include <map>

#include "knobs/ompi_algorithms.hpp"

namespace commtune {

void NcclTunerCsvWriter::write(const ExportPlan& plan, std::ostream& out) const {
  for (const auto& line : plan.summary) out << "# " << comment_text(line) << "\n";
  for (const auto& note : plan.notes) out << "# note: " << comment_text(note) << "\n";
  const std::string plugin = plan.tuner_plugin_path.empty()
                                 ? std::string("<commtune's lib directory>/") + kTunerPluginFileName
                                 : comment_text(plan.tuner_plugin_path);
  out << "# rules for commtune's NCCL tuner plugin " << kTunerPluginFileName
      << " (tuner ABI v5: NCCL 2.28, 2.29; v6: NCCL 2.30)\n";
  out << "# use: NCCL_TUNER_PLUGIN=" << plugin << " NCCL_TUNER_CONFIG_FILE=/path/to/this/file\n";
  out << "# meaning: sizes no rule covers, and -1 in algorithm/protocol/channels, are NCCL's own choice\n";
  out << "# not for NVIDIA's example tuner plugin: it runs every collective no rule covers, and every rule\n";
  out << "# with channels -1, on one channel\n";
  out << "# "
         "collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff\n";
  for (const auto& r : plan.tuner_rows)
    out << r.collective << "," << r.min_bytes << "," << r.max_bytes << "," << r.algorithm << "," << r.protocol
        << "," << r.channels << "," << r.nnodes << "," << r.nranks << ",-1,-1\n";
}

namespace {

// Every collective's sections (the world's and each group size's), in increasing communicator
// size, as Open MPI's reader wants them.
std::map<Collective, std::vector<OmpiSection>> sections_of(const ExportPlan& plan) {
  std::map<Collective, std::vector<OmpiSection>> out;
  for (const auto& [c, rules] : plan.ompi_rules) out[c].push_back({c, plan.nranks, "world", rules});
  for (const OmpiSection& s : plan.ompi_group_rules) out[s.collective].push_back(s);
  for (auto& [c, sections] : out)
    std::sort(sections.begin(), sections.end(),
              [](const OmpiSection& a, const OmpiSection& b) { return a.comm_size < b.comm_size; });
  return out;
}

}  // namespace

// Open MPI's reader takes numbers only, so the file carries no comments.
void OmpiRulesWriter::write(const ExportPlan& plan, std::ostream& out) const {
  const auto sections = sections_of(plan);
  out << sections.size() << "\n";
  for (const auto& [c, list] : sections) {
    out << ompi_collective_id(c) << "\n" << list.size() << "\n";
    for (const OmpiSection& s : list) {
      out << s.comm_size << "\n" << s.rules.size() << "\n";
      for (const auto& r : s.rules)
        out << r.min_bytes << " " << r.algorithm << " " << r.fanout << " " << r.segment_size << "\n";
    }
  }
}

}  // namespace commtune
