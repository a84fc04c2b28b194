#include "report/rules_file_writers.hpp"

#include "knobs/ompi_algorithms.hpp"

namespace commtune {

void NcclTunerCsvWriter::write(const ExportPlan& plan, std::ostream& out) const {
  for (const auto& line : plan.summary) out << "# " << comment_text(line) << "\n";
  for (const auto& note : plan.notes) out << "# note: " << comment_text(note) << "\n";
  out << "# use: NCCL_TUNER_PLUGIN=<example tuner plugin> NCCL_TUNER_CONFIG_FILE=/path/to/this/file\n";
  out << "# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff\n";
  for (const auto& r : plan.tuner_rows)
    out << r.collective << "," << r.min_bytes << "," << r.max_bytes << "," << r.algorithm << "," << r.protocol << ","
        << r.channels << "," << r.nnodes << "," << r.nranks << ",-1,-1\n";
}

// Open MPI's reader takes numbers only, so the file carries no comments.
void OmpiRulesWriter::write(const ExportPlan& plan, std::ostream& out) const {
  out << plan.ompi_rules.size() << "\n";
  for (const auto& [c, rules] : plan.ompi_rules) {
    out << ompi_collective_id(c) << "\n1\n" << plan.nranks << "\n" << rules.size() << "\n";
    for (const auto& r : rules) out << r.min_bytes << " " << r.algorithm << " " << r.fanout << " " << r.segment_size << "\n";
  }
}

}  // namespace commtune
