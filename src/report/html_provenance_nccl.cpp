#include "report/html_provenance_facts.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "html/number_text.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using nlohmann::json;
using HostTexts = std::vector<std::pair<std::string, std::string>>;  // (hosts, text)

constexpr std::size_t kMaxMatrixChars = 20000;

std::string text_at(const json& facts, const char* key) {
  return facts.contains(key) ? scalar_text(facts[key]) : "";
}

// Hosts with the same text merged into one entry ("n1, n2"), in order of first appearance.
HostTexts merged(const HostTexts& per_host) {
  HostTexts out;
  for (const auto& entry : per_host) {  // not a structured binding: clang 14 cannot capture one
    const auto at =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.second == entry.second; });
    if (at == out.end())
      out.push_back(entry);
    else
      at->first += ", " + entry.first;
  }
  return out;
}

// One line per group of hosts; the hosts left out when every host says the same.
std::vector<std::string> host_lines(const HostTexts& per_host) {
  const HostTexts groups = merged(per_host);
  std::vector<std::string> lines;
  for (const auto& [hosts, text] : groups)
    lines.push_back(groups.size() == 1 ? text : cut(hosts) + ": " + text);
  return lines;
}

// "NCCL 2.28.9 (headers 2.27.3), CUDA runtime 12.8, driver 12.8".
std::string versions_text(const json& facts) {
  std::string nccl = text_at(facts, "version");
  if (nccl.empty()) nccl = text_at(facts, "nccl_version");
  std::string out = nccl.empty() ? "" : "NCCL " + nccl;
  if (const std::string headers = text_at(facts, "nccl_headers"); !headers.empty() && headers != nccl)
    out += " (headers " + headers + ")";
  for (const auto& [key, name] : {std::pair{"cuda_runtime", "CUDA runtime "},
                                  std::pair{"cuda_driver", "driver "}, std::pair{"driver", "driver "}})
    if (facts.contains(key)) out += (out.empty() ? "" : ", ") + std::string(name) + scalar_text(facts[key]);
  if (facts.contains("simulated") && facts["simulated"] == true)
    out += (out.empty() ? "" : ", ") + std::string("test doubles instead of NCCL (\"simulated\": true)");
  return out;
}

std::string choice_text(const json& choice) {
  if (!choice.is_object() || !choice.contains("recorded")) return scalar_text(choice);
  if (choice["recorded"] == true) return "recorded by the tuner plugin " + text_at(choice, "plugin");
  return "not recorded: " + text_at(choice, "reason");
}

std::vector<std::string> run_lines(const json& nccl) {
  std::vector<std::string> lines;
  if (nccl.contains("emulated_nodes")) lines.push_back("emulated nodes: " + text_at(nccl, "emulated_nodes"));
  if (nccl.contains("cuda_graph_launch"))
    lines.push_back("CUDA graph launch: " + text_at(nccl, "cuda_graph_launch"));
  std::string limits;
  if (nccl.contains("init_timeout_s"))
    limits = "communicator set-up " + text_at(nccl, "init_timeout_s") + " s";
  if (nccl.contains("case_timeout_s"))
    limits +=
        (limits.empty() ? "" : ", ") + std::string("each case ") + text_at(nccl, "case_timeout_s") + " s";
  if (!limits.empty()) lines.push_back("time limits: " + limits);
  return lines;
}

// The ranks a supervisor's workers run on device `index`: "0, 1", or "none".
std::string ranks_on(const json& supervisor, const json& index) {
  std::string ranks;
  for (const auto& w : supervisor.value("workers", json::array()))
    if (w.is_object() && w.contains("device") && w["device"] == index)
      ranks += (ranks.empty() ? "" : ", ") + text_at(w, "rank");
  return ranks.empty() ? "none" : cut(ranks);
}

void add_gpu_rows(const json& supervisor, html::Table& table) {
  const json probe = supervisor.value("devices", json::object());
  const json devices = probe.is_object() ? probe.value("devices", json::array()) : json::array();
  for (const auto& d : devices) {
    if (!d.is_object()) continue;
    const std::string memory = d.contains("total_bytes") && d["total_bytes"].is_number()
                                   ? html::binary_size(d["total_bytes"].get<double>())
                                   : "";
    table.rows.push_back({string_at(supervisor, "host"), text_at(d, "index"), text_at(d, "name"),
                          text_at(d, "pci_bus_id"), text_at(d, "compute_capability"), memory,
                          text_at(d, "multicast"),
                          d.contains("index") ? ranks_on(supervisor, d["index"]) : ""});
  }
}

std::string gpus_html(const json& supervisors) {
  html::Table table{
      {"host", "GPU", "name", "PCI bus", "compute capability", "memory", "NVSwitch multicast", "ranks"},
      {},
      {}};
  for (const auto& s : supervisors) add_gpu_rows(s, table);
  html::drop_empty_columns(table);
  return html::render_collapsed_table(table, "provenance-detail", kShownRows, "GPUs");
}

std::string topology_html(const json& supervisors) {
  HostTexts matrices, unavailable;
  for (const auto& s : supervisors) {
    const json topology = s.value("gpu_topology", json::object());
    const std::string host = string_at(s, "host"), matrix = string_at(topology, "matrix");
    if (!matrix.empty())
      matrices.emplace_back(host, cut(matrix, kMaxMatrixChars));
    else
      unavailable.emplace_back(host, topology.contains("unavailable")
                                         ? "unavailable: " + text_at(topology, "unavailable")
                                         : scalar_text(topology));
  }
  std::string out;
  for (const auto& [hosts, matrix] : merged(matrices))
    out += html::folded("nvidia-smi topo -m on " + cut(hosts), html::preformatted(matrix));
  for (const auto& [hosts, text] : merged(unavailable)) out += html::text_lines({cut(hosts) + ": " + text});
  return out;
}

// "mlx5_0 port 1: ACTIVE, 400 Gb/sec (4X NDR), InfiniBand; mlx5_1 ...", or "none".
std::string infiniband_text(const json& devices) {
  if (!devices.is_array()) return scalar_text(devices);
  std::string out;
  for (const auto& d : devices)
    for (const auto& p : d.is_object() ? d.value("ports", json::array()) : json::array())
      if (p.is_object())
        out += (out.empty() ? "" : "; ") + text_at(d, "name") + " port " + text_at(p, "port") + ": " +
               text_at(p, "state") + ", " + text_at(p, "rate") + ", " + text_at(p, "link_layer");
  return out.empty() ? "none" : cut(out);
}

void add_supervisors(const json& supervisors, ProvenanceFacts& rows) {
  HostTexts versions, infiniband;
  for (const auto& s : supervisors) {
    versions.emplace_back(string_at(s, "host"), versions_text(s.value("devices", json::object())));
    infiniband.emplace_back(string_at(s, "host"), infiniband_text(s.value("infiniband", json::array())));
  }
  rows.push_back({"NCCL", html::text_lines(host_lines(versions))});
  rows.push_back({"GPUs", gpus_html(supervisors)});
  rows.push_back({"GPU topology", topology_html(supervisors)});
  rows.push_back({"InfiniBand", html::text_lines(host_lines(infiniband))});
  for (const auto& s : supervisors)
    add_other_members(s, {"host", "device_memory_bytes", "workers", "devices", "gpu_topology", "infiniband"},
                      "NCCL on " + string_at(s, "host") + ": ", rows);
}

bool all_objects(const json& list) {
  return list.is_array() &&
         std::all_of(list.begin(), list.end(), [](const json& e) { return e.is_object(); });
}

}  // namespace

void add_nccl(const std::string& label, const json& nccl, ProvenanceFacts& rows) {
  if (!nccl.is_object()) return add_value(label, nccl, rows);
  const bool supervised = nccl.contains("supervisors") && all_objects(nccl["supervisors"]);
  if (supervised)
    add_supervisors(nccl["supervisors"], rows);
  else if (const std::string versions = versions_text(nccl); !versions.empty())
    rows.push_back({label, html::text_lines({versions})});
  if (nccl.contains("nccl_choice"))
    rows.push_back({"NCCL's own choice", html::text_lines({cut(choice_text(nccl["nccl_choice"]))})});
  if (const auto lines = run_lines(nccl); !lines.empty())
    rows.push_back({"NCCL run", html::text_lines(lines)});
  add_other_members(nccl,
                    {supervised ? "supervisors" : "", "version", "nccl_version", "nccl_headers",
                     "cuda_runtime", "cuda_driver", "driver", "simulated", "nccl_choice", "emulated_nodes",
                     "cuda_graph_launch", "init_timeout_s", "case_timeout_s"},
                    label + " ", rows);
}

}  // namespace commtune
