#include "knobs/nccl_knobs.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <array>

#include "knobs/nccl_list_syntax.hpp"
#include "core/collective_table.hpp"
#include "core/errors.hpp"
#include "knobs/knob_grammar.hpp"

namespace commtune {
namespace {

std::string value_of(const Setting& setting, const std::string& name) {
  const auto it = setting.knobs.find(name);
  return it == setting.knobs.end() ? std::string() : it->second;
}

// Algorithms each collective can run (NCCL 2.28's getAlgoInfo and its algorithm tables), and the
// protocols each algorithm runs.
struct NcclAlgorithmsOf {
  Collective collective;
  std::array<std::string_view, 7> algorithms;
};
constexpr std::array<NcclAlgorithmsOf, kCollectiveCount> kAlgorithmsOf{{
    {Collective::AllReduce, {"Ring", "Tree", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree"}},
    {Collective::AllGather, {"Ring", "CollNetDirect", "NVLS", "PAT"}},
    {Collective::Broadcast, {"Ring"}},
    {Collective::ReduceScatter, {"Ring", "CollNetDirect", "NVLS", "PAT"}},
}};
static_assert(covers_every_collective(kAlgorithmsOf), "one NCCL algorithm row per collective, in enum order");

bool algorithm_runs(const std::string& algorithm, Collective c) {
  const auto& runs = row_of(kAlgorithmsOf, c).algorithms;
  return !algorithm.empty() && std::find(runs.begin(), runs.end(), algorithm) != runs.end();
}

bool protocol_runs(const std::string& algorithm, const std::string& protocol) {
  return algorithm == "Ring" || algorithm == "Tree" || protocol == "Simple";
}

bool can_run(Collective c, const std::set<std::string>& algorithms, const std::set<std::string>& protocols) {
  for (const auto& a : algorithms)
    for (const auto& p : protocols)
      if (algorithm_runs(a, c) && protocol_runs(a, p)) return true;
  return false;
}

std::set<std::string> enabled(SelectionKind kind, const std::string& value, Collective c) {
  if (value.empty()) return known_tokens(kind);
  return TokenSelection(kind, value).enabled_for(c);
}

// Why NCCL switches `algorithm` off on `layout` (NCCL 2.28.9 src/graph/tuning.cc and the PAT
// enable rule), or nothing.
bool is_nvls(const std::string& algorithm) { return algorithm == "NVLS" || algorithm == "NVLSTree"; }

// Why NCCL has no NVLS here, whatever the collective: off by knob or environment, or no NVSwitch.
std::optional<std::string> nvls_off(const Setting& setting, const NcclLayout& layout) {
  if (value_of(setting, "NCCL_NVLS_ENABLE") == "0" || !layout.nvls_enabled)
    return "NVLS is off (NCCL_NVLS_ENABLE=0)";
  if (!layout.nvls_hardware) return "NVLS needs NVSwitch multicast and two or more GPUs on a node";
  return std::nullopt;
}

std::optional<std::string> unavailable(const std::string& algorithm, const Setting& setting,
                                       const NcclLayout& layout, Collective c, const ReduceKind& kind) {
  const bool collnet = value_of(setting, "NCCL_COLLNET_ENABLE") == "1";
  if ((algorithm == "CollNetDirect" || algorithm == "CollNetChain") && !collnet)
    return "CollNet needs NCCL_COLLNET_ENABLE=1";
  if ((algorithm == "CollNetDirect" || algorithm == "CollNetChain") && !layout.collnet_plugin)
    return "CollNet needs a net plugin with CollNet support (none loads here)";
  if (is_nvls(algorithm))
    if (const auto off = nvls_off(setting, layout)) return off;
  if (is_nvls(algorithm) && c != Collective::AllGather && !nvls_reduces(kind))
    return "NVLS does not reduce " + std::string(name_of(kind.dtype)) + " " + std::string(name_of(kind.op));
  if (algorithm == "NVLS" && layout.nnodes > 1 && !collnet) return "NVLS is off across nodes without CollNet";
  if (algorithm == "NVLSTree" && layout.nnodes == 1) return "NVLSTree is off on one node";
  const std::string pat = value_of(setting, "NCCL_PAT_ENABLE");
  if (algorithm == "PAT" && pat == "0") return "PAT is off (NCCL_PAT_ENABLE=0)";
  if (algorithm == "PAT" && pat != "1" && layout.nnodes != layout.nranks)
    return "PAT needs one GPU per node (NCCL_PAT_ENABLE=1 forces it)";
  return std::nullopt;
}

void check_combinations(const Setting& setting, const std::vector<Collective>& sweep_collectives) {
  const std::string algo = value_of(setting, "NCCL_ALGO"), proto = value_of(setting, "NCCL_PROTO");
  if (algo.empty() && proto.empty()) return;
  for (Collective c : sweep_collectives) {
    if (!setting.applies_to(c)) continue;
    if (!can_run(c, enabled(SelectionKind::Algorithm, algo, c), enabled(SelectionKind::Protocol, proto, c)))
      throw InputError("NCCL_ALGO='" + algo + "' NCCL_PROTO='" + proto +
                       "' leaves NCCL no algorithm/protocol for " + std::string(name_of(c)) +
                       "; restrict the setting with \"collectives\"");
  }
}

void check_channel_bounds(const Setting& setting) {
  for (const auto& [low, high] :
       {std::pair{"NCCL_MIN_CTAS", "NCCL_MAX_CTAS"}, {"NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS"}}) {
    const std::string a = value_of(setting, low), b = value_of(setting, high);
    if (!a.empty() && !b.empty() && parse_knob_integer(a) > parse_knob_integer(b))
      throw InputError(std::string(low) + "=" + a + " is above " + high + "=" + b);
  }
}

const KnobCheck* check_of(const std::string& name, const KnobChecks& extra) {
  for (const KnobChecks* table : {&nccl_knob_table(), &extra})
    if (const auto entry = table->find(name); entry != table->end()) return &entry->second;
  return nullptr;
}

void check_knob(const std::string& name, const std::string& value, const KnobChecks& extra) {
  if (name.rfind("coll_", 0) == 0 || name.rfind("OMPI_", 0) == 0)
    throw InputError("'" + name + "' is an Open MPI knob: this setting is for --backend mpi");
  if (!is_valid_env_name(name))
    throw InputError("knob '" + name + "' is not a valid environment variable name");
  const KnobCheck* check = check_of(name, extra);
  if (check == nullptr)
    throw InputError("unknown NCCL knob '" + name +
                     "' (see docs/nccl-backend.md for the knobs commtune validates)");
  if (value.find('\0') != std::string::npos || value.find('\n') != std::string::npos)
    throw InputError(name + ": value contains a control character");
  try {
    (*check)(value);
  } catch (const InputError& e) {
    const std::string text = e.what();
    throw InputError(text.rfind(name, 0) == 0 ? text : name + "=" + value + ": " + text);
  }
}

}  // namespace

bool is_config_knob(std::string_view name) { return name == "NCCL_MIN_CTAS" || name == "NCCL_MAX_CTAS"; }

void validate_nccl_knob(const std::string& name, const std::string& value) { check_knob(name, value, {}); }

bool is_nccl_knob(std::string_view name) { return nccl_knob_table().find(name) != nccl_knob_table().end(); }

bool nvls_reduces(const ReduceKind& kind) {
  switch (kind.dtype) {
    case DataType::Int32:
    case DataType::Uint32:
    case DataType::Int64:
    case DataType::Uint64:
    case DataType::Float16:
    case DataType::BFloat16:
      return kind.op == ReduceOp::Sum || kind.op == ReduceOp::Max || kind.op == ReduceOp::Min;
    case DataType::Float32:
    case DataType::Float64:
      return kind.op == ReduceOp::Sum;
    case DataType::Int8:
    case DataType::Uint8:
      return false;
  }
  return false;
}

std::optional<std::string> layout_conflict(const Setting& setting, Collective c, const NcclLayout& layout,
                                           const ReduceKind& kind) {
  const std::string algo = value_of(setting, "NCCL_ALGO");
  if (algo.empty() || !setting.applies_to(c)) return std::nullopt;
  std::set<std::string> available;
  std::string why;
  for (const auto& algorithm : enabled(SelectionKind::Algorithm, algo, c)) {
    if (!algorithm_runs(algorithm, c)) continue;
    const std::optional<std::string> off = unavailable(algorithm, setting, layout, c, kind);
    if (!off)
      available.insert(algorithm);
    else
      why += (why.empty() ? "" : "; ") + *off;
  }
  if (can_run(c, available, enabled(SelectionKind::Protocol, value_of(setting, "NCCL_PROTO"), c)))
    return std::nullopt;
  return "NCCL_ALGO='" + algo + "' leaves NCCL nothing to run " + std::string(name_of(c)) + " with on " +
         std::to_string(layout.nnodes) + " node(s) x " + std::to_string(layout.nranks) + " rank(s)" +
         (why.empty() ? std::string() : ": " + why);
}

void validate_nccl_setting(const Setting& setting, const std::vector<Collective>& sweep_collectives,
                           const KnobChecks& extra) {
  for (const auto& [name, value] : setting.knobs) check_knob(name, value, extra);
  check_channel_bounds(setting);
  check_combinations(setting, sweep_collectives);
}

}  // namespace commtune
