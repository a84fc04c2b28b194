#pragma once
// A replay's results file (`commtune replay`, docs/replay.md): what was replayed (the workload, the
// options, the price), on what (backend, ranks, provenance), and every setting's replayed steps. One
// type, one JSON shape: written at the end of a replay, read (and validated) by `report` and
// `compare`. The figures (medians, intervals, changes, shares, money) are written for a reader and
// recomputed from the steps by replay/replay_verdict when the file is read, never trusted.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend_kind.hpp"
#include "replay/replay_job.hpp"
#include "replay/replay_rounds.hpp"
#include "workload/workload.hpp"

namespace commtune {

struct ReplayRecord {
  BackendKind backend = BackendKind::Mpi;
  int nranks = 0;
  std::string workload_file;
  Workload workload;
  ReplayOptions options;
  double contend = 0;  // --contend F
  std::size_t rounds_run = 0;
  bool complete = false;
  std::vector<SettingReplay> settings;
  nlohmann::json provenance = nlohmann::json::object();
};

inline constexpr std::string_view kReplayKind = "commtune-replay";
inline constexpr int kReplayVersion = 1;

nlohmann::json to_json(const ReplayRecord& record);
bool is_replay_json(const nlohmann::json& j);
// Validates every field (the workload as workload files are; steps positive and finite, one list
// per call, as many steps per call as steps); an InputError names `origin` and the field.
ReplayRecord replay_from_json(const nlohmann::json& j, const std::string& origin);
ReplayRecord read_replay_file(const std::string& path);

}  // namespace commtune
