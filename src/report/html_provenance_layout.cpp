#include "report/html_provenance_facts.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "html/number_text.hpp"
#include "html/table.hpp"

namespace commtune {
namespace {

using nlohmann::json;

std::string counted(const json& n, const std::string& noun) {
  return scalar_text(n) + " " + noun + (n.is_number() && n.get<double>() == 1 ? "" : "s");
}

// "16 ranks on 2 nodes, 8 per node".
std::string ranks_text(const json& layout) {
  std::string text = counted(layout["nranks"], "rank") + " on " + counted(layout["nhosts"], "node");
  const json sizes = layout.value("local_sizes", json::array());
  if (!sizes.is_array() || sizes.empty()) return text;
  if (std::all_of(sizes.begin(), sizes.end(), [&](const json& s) { return s == sizes[0]; }))
    return text + ", " + scalar_text(sizes[0]) + " per node";
  std::string each;
  for (const auto& s : sizes) each += (each.empty() ? "" : ", ") + scalar_text(s);
  return text + ", per node: " + cut(each);
}

std::string bytes_text(const json& facts, const std::string& key) {
  const auto at = facts.find(key);
  return at != facts.end() && at->is_number() ? html::binary_size(at->get<double>()) : "";
}

// "AMD EPYC: 1 package, 64 cores, 128 threads, 2 NUMA nodes".
std::string cpu_text(const json& facts) {
  std::string counts;
  static constexpr std::pair<const char*, const char*> kCounts[] = {{"packages", "package"},
                                                                    {"cores", "core"},
                                                                    {"hardware_threads", "thread"},
                                                                    {"numa_nodes", "NUMA node"}};
  for (const auto& [key, noun] : kCounts)
    if (facts.contains(key)) counts += (counts.empty() ? "" : ", ") + counted(facts[key], noun);
  const std::string model = string_at(facts, "cpu_model");
  return model.empty() || counts.empty() ? model + counts : model + ": " + counts;
}

std::string memory_text(const json& facts) {
  const std::string total = bytes_text(facts, "memory_bytes"), numa = bytes_text(facts, "numa_memory_bytes");
  if (numa.empty() || numa == total) return total;
  return total.empty() ? "NUMA nodes (hwloc): " + numa : total + " (NUMA nodes, hwloc: " + numa + ")";
}

std::string other_text(const json& facts) {
  static const std::vector<std::string> kShown{"cpu_model",         "packages",   "cores",
                                               "hardware_threads",  "numa_nodes", "memory_bytes",
                                               "numa_memory_bytes", "gpus"};
  std::string out;
  for (const auto& [key, value] : facts.items())
    if (std::find(kShown.begin(), kShown.end(), key) == kShown.end())
      out += (out.empty() ? "" : "; ") + readable_key(key) + ": " + scalar_text(value);
  return cut(out);
}

std::string hosts_html(const json& hosts) {
  html::Table table{{"host", "CPU", "memory", "GPUs", "other"}, {}, {}};
  for (const auto& [name, facts] : hosts.items()) {
    if (!facts.is_object()) {
      table.rows.push_back({name, "", "", "", scalar_text(facts)});
      continue;
    }
    const std::string gpus = facts.contains("gpus") ? scalar_text(facts["gpus"]) : "";
    table.rows.push_back({name, cpu_text(facts), memory_text(facts), gpus, other_text(facts)});
  }
  html::drop_empty_columns(table);
  return html::render_collapsed_table(table, "provenance-detail", kShownRows, "hosts");
}

// "cpu", or "GPU 3, 0000:41:00.0, CUDA_VISIBLE_DEVICES=0,1,2,3".
std::string device_text(const json& device) {
  if (!device.is_object() || !device.contains("index")) return scalar_text(device);
  std::string text = "GPU " + scalar_text(device["index"]);
  if (const std::string bus = string_at(device, "pci_bus_id"); !bus.empty()) text += ", " + bus;
  if (const std::string visible = string_at(device, "cuda_visible_devices"); !visible.empty())
    text += ", CUDA_VISIBLE_DEVICES=" + visible;
  return cut(text);
}

std::string ranks_html(const json& ranks) {
  html::Table table{
      {"rank", "host", "node", "local rank", "launcher's local rank", "process", "device"}, {}, {}};
  const auto text = [](const json& r, const char* key) { return r.contains(key) ? scalar_text(r[key]) : ""; };
  for (const auto& r : ranks)
    if (r.is_object())
      table.rows.push_back({text(r, "rank"), text(r, "host"), text(r, "node"), text(r, "local_rank"),
                            text(r, "launcher_local_rank"), text(r, "pid"),
                            r.contains("device") ? device_text(r["device"]) : ""});
  html::drop_empty_columns(table);
  return html::render_collapsed_table(table, "provenance-detail", kShownRows, "ranks");
}

}  // namespace

void add_layout(const std::string& label, const json& layout, ProvenanceFacts& rows) {
  if (!layout.is_object()) return add_value(label, layout, rows);
  if (layout.contains("nranks") && layout.contains("nhosts"))
    rows.push_back({"ranks", html::text_lines({ranks_text(layout)})});
  if (layout.contains("hosts") && layout["hosts"].is_object() && !layout["hosts"].empty())
    rows.push_back({"hosts", hosts_html(layout["hosts"])});
  if (layout.contains("ranks") && layout["ranks"].is_array() && !layout["ranks"].empty())
    rows.push_back({"rank placement", ranks_html(layout["ranks"])});
  add_other_members(layout, {"nranks", "nhosts", "local_sizes", "hosts", "ranks"}, label + " ", rows);
}

}  // namespace commtune
