#pragma once
// Per-size rules files. NCCL tuner CSV in the format of NCCL's example tuner plugin:
// `collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff`,
// lowercase tokens, `#` comments. Open MPI coll/tuned dynamic rules file (4.x layout: number of
// collectives; per collective its id, number of comm sizes; per comm size the size, number of
// message sizes; per message size `bytes algorithm fanout segsize`), used with
// OMPI_MCA_coll_tuned_use_dynamic_rules=1 and OMPI_MCA_coll_tuned_dynamic_rules_filename.
#include "exports/export_writer.hpp"

namespace commtune {

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

}  // namespace commtune
