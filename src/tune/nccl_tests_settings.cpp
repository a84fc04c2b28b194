#include "tune/nccl_tests_settings.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "knobs/nccl_knobs.hpp"
#include "results/launch_merge.hpp"

namespace commtune {
namespace {

bool only_diagnostics(const std::string& name) {
  static const std::set<std::string> names{"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE",
                                           "NCCL_TOPO_DUMP_FILE", "NCCL_GRAPH_DUMP_FILE"};
  return names.count(name) > 0;
}

std::map<std::string, std::string> environment_of(const ResultsDocument& file) {
  std::map<std::string, std::string> out;
  const nlohmann::json& p = file.provenance;
  if (!p.is_object() || !p.contains("environment") || !p["environment"].is_object()) return out;
  for (const auto& [name, value] : p["environment"].items())
    if (value.is_string()) out[name] = value.get<std::string>();
  return out;
}

// The file's setting: its knobs of commtune's NCCL table, each value checked.
std::map<std::string, std::string> knobs_of(const ResultsDocument& file, const std::string& origin) {
  std::map<std::string, std::string> knobs;
  for (const auto& [name, value] : environment_of(file)) {
    if (!is_nccl_knob(name) || only_diagnostics(name)) continue;
    try {
      validate_nccl_knob(name, value);
    } catch (const InputError& e) {
      throw InputError(origin + ": env " + name + ": " + e.what());
    }
    knobs[name] = value;
  }
  return knobs;
}

// The other NCCL_* variables (no knob of commtune's) whose values differ between the files, or
// that some files lack.
std::vector<std::string> differing_others(const std::vector<ResultsDocument>& files) {
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, std::size_t> holding;
  for (const auto& f : files)
    for (const auto& [name, value] : environment_of(f))
      if (!is_nccl_knob(name)) values[name].insert(value), ++holding[name];
  std::vector<std::string> notes;
  for (const auto& [name, seen] : values)
    if (seen.size() > 1 || holding[name] != files.size())
      notes.push_back(
          name +
          " differs between the files and is no knob of commtune's: ignored (not part of any setting)");
  return notes;
}

// Cycles of -N are the case's runs, on nccl-tests' time.
ResultsDocument on_nccl_tests_time(ResultsDocument file) {
  for (auto& r : file.cases)
    if (r.run_medians_us.empty() && r.run_nccl_tests_us.size() > 1) r.run_medians_us = r.run_nccl_tests_us;
  return file;
}

}  // namespace

std::string setting_name_of(const std::map<std::string, std::string>& knobs) {
  if (knobs.empty()) return kDefaultSettingName;
  std::string name;
  for (const auto& [knob, value] : knobs) {
    std::string part = knob.rfind("NCCL_", 0) == 0 ? knob.substr(5) : knob;
    std::transform(part.begin(), part.end(), part.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    part += ":";
    for (const char c : value)
      part += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '.';
    name += (name.empty() ? "" : "+") + part;
  }
  return name;
}

// The knobs set alike in every file: the site's environment (NCCL_IB_HCA=mlx5 everywhere), not
// what the runs compared.
std::map<std::string, std::string> common_knobs(const std::vector<std::map<std::string, std::string>>& all) {
  std::map<std::string, std::string> common = all.front();
  for (const auto& knobs : all)
    std::erase_if(common, [&](const auto& kv) {
      const auto it = knobs.find(kv.first);
      return it == knobs.end() || it->second != kv.second;
    });
  return common;
}

NcclTestsSweep nccl_tests_sweep(const std::vector<ResultsDocument>& files,
                                const std::vector<std::string>& origins) {
  if (files.empty()) throw InputError("tune: no nccl-tests file");
  std::vector<std::map<std::string, std::string>> all;
  for (std::size_t i = 0; i < files.size(); ++i) all.push_back(knobs_of(files[i], origins[i]));
  const std::map<std::string, std::string> common = common_knobs(all);
  std::map<std::map<std::string, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::erase_if(all[i], [&](const auto& kv) { return common.count(kv.first) > 0; });
    groups[all[i]].push_back(i);
  }
  if (!groups.count({}))
    throw InputError("tune: every nccl-tests file ran with forced NCCL knobs (" +
                     setting_name_of(groups.begin()->first) +
                     ", ...): the default (none forced) is the baseline each setting is judged against; add "
                     "a run without them");
  if (groups.size() < 2)
    throw InputError(
        "tune: the nccl-tests files all ran one setting (no NCCL knob differs between them): nothing to "
        "choose between");
  NcclTestsSweep out;
  // The empty map orders first: the default's files come first and give the document its
  // provenance and options.
  for (const auto& [knobs, members] : groups) {
    std::vector<ResultsDocument> launches;
    std::vector<std::string> names;
    for (const std::size_t i : members)
      launches.push_back(on_nccl_tests_time(files[i])), names.push_back(origins[i]);
    ResultsDocument merged = launches.size() == 1 ? launches.front() : merge_launches(launches, names);
    std::string name = setting_name_of(knobs);
    for (int n = 2; std::any_of(out.document.settings.begin(), out.document.settings.end(),
                                [&](const Setting& t) { return t.name == name; });
         ++n)
      name = setting_name_of(knobs) + "-" + std::to_string(n);  // two values that differ only in punctuation
    for (auto& r : merged.cases) r.setting = name;
    const Setting setting{
        name, knobs.empty() ? "nccl-tests, nothing forced" : "nccl-tests under " + name, knobs, {}};
    if (knobs.empty()) {
      out.document = std::move(merged);
      out.document.settings = {setting};
      continue;
    }
    out.document.settings.push_back(setting);
    out.document.cases.insert(out.document.cases.end(), merged.cases.begin(), merged.cases.end());
  }
  validate_setting_names(out.document.settings);
  out.notes = differing_others(files);
  return out;
}

}  // namespace commtune
