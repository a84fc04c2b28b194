#include "host/provenance.hpp"

#include <unistd.h>

#include <map>

#include "control/typed_messages.hpp"
#include "host/host_facts.hpp"

extern char** environ;

namespace commtune {

nlohmann::json base_provenance(int argc, char** argv, const Launcher& launcher) {
  nlohmann::json args = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  return nlohmann::json{{"tool", "commtune"},
                        {"tool_version", COMMTUNE_VERSION},
                        {"argv", args},
                        {"start_time", utc_timestamp()},
                        {"kernel", kernel_release()},
                        {"launcher", launcher_provenance(launcher)},
                        {"environment", relevant_environment(environ)}};
}

nlohmann::json launcher_provenance(const Launcher& launcher) {
  nlohmann::json facts{{"name", launcher.name}};
  if (!launcher.slurm) return facts;
  const SlurmJob& job = *launcher.slurm;
  nlohmann::json slurm{{"job_id", job.job_id}, {"nodelist", job.nodelist}};
  if (job.nnodes) slurm["nnodes"] = *job.nnodes;
  if (!job.step_id.empty()) slurm["step_id"] = job.step_id;
  if (!job.step_nodelist.empty()) slurm["step_nodelist"] = job.step_nodelist;
  if (job.ntasks) slurm["ntasks"] = *job.ntasks;
  if (!job.tasks_per_node.empty()) slurm["tasks_per_node"] = job.tasks_per_node;
  facts["slurm"] = slurm;
  return facts;
}

namespace {

// What one process tells rank 0 about itself and the ranks it runs.
nlohmann::json process_facts(const ControlPlane& control, const std::vector<RankPlace>& mine) {
  const NodeLocality where = control.locality();
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankPlace& place : mine) {
    nlohmann::json entry{{"rank", place.rank},
                         {"host", host_name()},
                         {"node", where.node},
                         {"local_rank", place.local_rank},
                         {"pid", static_cast<long>(getpid())},
                         {"device", place.device}};
    if (place.launcher_local_rank) entry["launcher_local_rank"] = *place.launcher_local_rank;
    ranks.push_back(std::move(entry));
  }
  return ranks;
}

}  // namespace

nlohmann::json rank_layout(ControlPlane& control, const std::vector<RankPlace>& mine) {
  const std::vector<nlohmann::json> all = gather_values(control, process_facts(control, mine));
  const std::vector<nlohmann::json> topologies = gather_values(control, host_topology());
  if (control.rank() != 0) return {};
  std::map<int, nlohmann::json> by_rank;
  std::map<int, int> ranks_on_node;
  nlohmann::json hosts = nlohmann::json::object();
  for (std::size_t p = 0; p < all.size(); ++p) {
    for (nlohmann::json entry : all[p]) {
      const std::string host = entry["host"];
      if (!hosts.contains(host)) hosts[host] = topologies[p];
      ++ranks_on_node[entry["node"].get<int>()];
      const int rank = entry["rank"].get<int>();
      by_rank[rank] = std::move(entry);
    }
  }
  nlohmann::json ranks = nlohmann::json::array(), per_node = nlohmann::json::array();
  for (auto& [rank, entry] : by_rank) ranks.push_back(std::move(entry));
  for (const auto& [node, count] : ranks_on_node) per_node.push_back(count);
  return nlohmann::json{{"nranks", ranks.size()},
                        {"nhosts", ranks_on_node.size()},
                        {"local_sizes", per_node},
                        {"ranks", ranks},
                        {"hosts", hosts}};
}

}  // namespace commtune
