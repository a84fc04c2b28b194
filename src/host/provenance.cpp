#include "host/provenance.hpp"

#include <unistd.h>

#include <set>

#include "host/host_facts.hpp"

extern char** environ;

namespace commtune {

nlohmann::json base_provenance(int argc, char** argv) {
  nlohmann::json args = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  return nlohmann::json{{"tool", "commtune"},
                        {"tool_version", COMMTUNE_VERSION},
                        {"argv", args},
                        {"start_time", utc_timestamp()},
                        {"kernel", kernel_release()},
                        {"environment", relevant_environment(environ)}};
}

nlohmann::json rank_layout(ControlPlane& control) {
  const nlohmann::json mine{{"rank", control.rank()}, {"host", host_name()}, {"pid", static_cast<long>(getpid())}};
  const std::vector<std::string> all = control.gather_to_root(mine.dump());
  const std::string topology = host_topology().dump();
  const std::vector<std::string> topologies = control.gather_to_root(topology);
  if (control.rank() != 0) return {};
  nlohmann::json ranks = nlohmann::json::array(), hosts = nlohmann::json::object();
  for (std::size_t r = 0; r < all.size(); ++r) {
    nlohmann::json entry = nlohmann::json::parse(all[r]);
    const std::string host = entry["host"];
    if (!hosts.contains(host)) hosts[host] = nlohmann::json::parse(topologies[r]);
    ranks.push_back(std::move(entry));
  }
  return nlohmann::json{{"nranks", all.size()}, {"nhosts", hosts.size()}, {"ranks", ranks}, {"hosts", hosts}};
}

}  // namespace commtune
