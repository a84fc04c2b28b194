#include "tune/provenance_diff.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "core/backend_kind.hpp"

namespace commtune {
namespace {

using nlohmann::json;

bool ignored(const std::string& path) {
  static constexpr std::array<std::string_view, 5> kIgnored{"argv", "start_time", "/pid", "layout/ranks",
                                                            "config/description"};
  return std::any_of(kIgnored.begin(), kIgnored.end(),
                     [&](std::string_view k) { return path.find(k) != std::string::npos; });
}

void flatten(const json& j, const std::string& path, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (const auto& item : j.items())
      flatten(item.value(), path.empty() ? item.key() : path + "/" + item.key(), out);
  } else if (!ignored(path)) {
    out[path] = j.is_string() ? j.get<std::string>() : j.dump();
  }
}

int priority(const std::string& field) {
  static const std::array<std::string, 10> kOrder{"driver",
                                                  "cuda",
                                                  library_key(BackendKind::Nccl),
                                                  library_key(BackendKind::Mpi),
                                                  "nranks",
                                                  "nhosts",
                                                  "gpu",
                                                  "hosts",
                                                  "topology",
                                                  "environment"};
  for (std::size_t i = 0; i < kOrder.size(); ++i)
    if (field.find(kOrder[i]) != std::string::npos) return static_cast<int>(i);
  return static_cast<int>(kOrder.size());
}

}  // namespace

std::vector<ProvenanceDifference> provenance_differences(const json& baseline, const json& current) {
  std::map<std::string, std::string> a, b;
  flatten(baseline, "", a);
  flatten(current, "", b);
  std::vector<ProvenanceDifference> out;
  for (const auto& [field, value] : a) {
    const auto it = b.find(field);
    if (it == b.end())
      out.push_back({field, value, "(absent)"});
    else if (it->second != value)
      out.push_back({field, value, it->second});
  }
  for (const auto& [field, value] : b)
    if (!a.count(field)) out.push_back({field, "(absent)", value});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return priority(x.field) < priority(y.field); });
  return out;
}

}  // namespace commtune
