#include "knobs/nccl_knobs.hpp"

#include <algorithm>
#include <charconv>
#include <functional>

#include "core/errors.hpp"
#include "knobs/nccl_list_syntax.hpp"
#include "knobs/knob_grammar.hpp"

namespace commtune {

long long parse_knob_integer(const std::string& value) {
  long long number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || error != std::errc() || end != value.data() + value.size())
    throw InputError("'" + value + "' is not an integer");
  return number;
}

namespace {

using ValueCheck = KnobCheck;

ValueCheck integer_in(long long low, long long high) {
  return [=](const std::string& value) {
    const long long number = parse_knob_integer(value);
    if (number < low || number > high)
      throw InputError(value + " is outside " + std::to_string(low) + ".." + std::to_string(high));
  };
}

ValueCheck one_of(std::vector<std::string> choices, bool ignore_case = true) {
  return [=](const std::string& value) {
    auto same = [&](const std::string& choice) {
      return choice.size() == value.size() &&
             std::equal(choice.begin(), choice.end(), value.begin(), [&](char a, char b) {
               return ignore_case ? std::tolower(static_cast<unsigned char>(a)) ==
                                        std::tolower(static_cast<unsigned char>(b))
                                  : a == b;
             });
    };
    if (std::none_of(choices.begin(), choices.end(), same)) {
      std::string names;
      for (const auto& c : choices) names += (names.empty() ? "" : ", ") + c;
      throw InputError("'" + value + "' is not one of " + names);
    }
  };
}

// Characters of interface / HCA / plugin names and lists: no spaces, quotes or shell syntax.
ValueCheck name_list(std::string_view extra) {
  return [=](const std::string& value) {
    auto allowed = [&](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
             extra.find(c) != std::string_view::npos;
    };
    if (value.empty() || !std::all_of(value.begin(), value.end(), allowed))
      throw InputError("'" + value + "' may only use letters, digits, _ - . and " + std::string(extra));
  };
}

// A file path: printable, no control characters (it reaches NCCL as an environment value).
void plain_path(const std::string& value) {
  if (value.empty() || std::any_of(value.begin(), value.end(),
                                   [](char c) { return std::iscntrl(static_cast<unsigned char>(c)); }))
    throw InputError("a path without control characters is needed");
}

// NCCL_P2P_LEVEL / NCCL_NET_GDR_LEVEL: a path type name, compared case-sensitively as NCCL does
// (src/graph/paths.cc, strcmp against topoPathTypeStr), or an old-style number 0-5.
void path_level(const std::string& value) {
  if (!value.empty() && std::isdigit(static_cast<unsigned char>(value[0]))) return integer_in(0, 5)(value);
  one_of({"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS"}, false)(value);
}

void algorithm_list(const std::string& value) { TokenSelection(SelectionKind::Algorithm, value); }
void protocol_list(const std::string& value) { TokenSelection(SelectionKind::Protocol, value); }

const ValueCheck kBoolean = integer_in(0, 1);

}  // namespace

const KnobChecks& nccl_knob_table() {
  static const KnobChecks table{
      // Per communicator (NCCL re-reads them at each init, or commtune passes them in ncclConfig_t).
      {"NCCL_ALGO", algorithm_list},
      {"NCCL_PROTO", protocol_list},
      {"NCCL_NET", name_list("")},
      {"NCCL_MIN_CTAS", integer_in(1, 64)},
      {"NCCL_MAX_CTAS", integer_in(1, 64)},
      {"NCCL_COLLNET_ENABLE", kBoolean},
      {"NCCL_TOPO_FILE", plain_path},
      {"NCCL_GRAPH_FILE", plain_path},
      {"NCCL_TOPO_DUMP_FILE", plain_path},
      {"NCCL_GRAPH_DUMP_FILE", plain_path},
      // Process-wide (cached by NCCL for the life of the worker).
      {"NCCL_MIN_NCHANNELS", integer_in(1, 64)},
      {"NCCL_MAX_NCHANNELS", integer_in(1, 64)},
      {"NCCL_NTHREADS", one_of({"64", "128", "256", "512"})},
      {"NCCL_BUFFSIZE", integer_in(1 << 12, 1LL << 34)},
      {"NCCL_LL_BUFFSIZE", integer_in(1 << 12, 1LL << 34)},
      {"NCCL_LL128_BUFFSIZE", integer_in(1 << 12, 1LL << 34)},
      {"NCCL_P2P_DISABLE", kBoolean},
      {"NCCL_P2P_LEVEL", path_level},
      {"NCCL_SHM_DISABLE", kBoolean},
      {"NCCL_NET_GDR_LEVEL", path_level},
      {"NCCL_NET_GDR_READ", kBoolean},
      {"NCCL_NVLS_ENABLE", integer_in(0, 2)},
      {"NCCL_PAT_ENABLE", kBoolean},
      {"NCCL_CUMEM_ENABLE", kBoolean},
      {"NCCL_MNNVL_ENABLE", integer_in(0, 2)},
      {"NCCL_CROSS_NIC", integer_in(0, 2)},
      {"NCCL_SOCKET_IFNAME", name_list("^=,:")},
      {"NCCL_SOCKET_NTHREADS", integer_in(1, 16)},
      {"NCCL_NSOCKS_PERTHREAD", integer_in(1, 64)},
      {"NCCL_IB_DISABLE", kBoolean},
      {"NCCL_IB_HCA", name_list("^=,:")},
      {"NCCL_IB_TIMEOUT", integer_in(1, 31)},
      {"NCCL_IB_RETRY_CNT", integer_in(0, 7)},
      {"NCCL_IB_QPS_PER_CONNECTION", integer_in(1, 128)},
      {"NCCL_IB_SPLIT_DATA_ON_QPS", kBoolean},
      {"NCCL_IB_GID_INDEX", integer_in(-1, 255)},
      {"NCCL_IB_SL", integer_in(0, 15)},
      {"NCCL_IB_TC", integer_in(0, 255)},
      {"NCCL_IB_PCI_RELAXED_ORDERING", integer_in(0, 2)},
      {"NCCL_IB_ADAPTIVE_ROUTING", kBoolean},
      {"NCCL_HOSTID", name_list("")},
      {"NCCL_NET_PLUGIN", name_list("/")},
      {"NCCL_TUNER_PLUGIN", name_list("/")},
      {"NCCL_TUNER_CONFIG_FILE", plain_path},
      {"NCCL_DEBUG", one_of({"VERSION", "WARN", "INFO", "TRACE", "ABORT"})},
      {"NCCL_DEBUG_SUBSYS", name_list("^,")},
      {"NCCL_DEBUG_FILE", plain_path},
      {"CUDA_DEVICE_MAX_CONNECTIONS", integer_in(1, 32)},
  };
  return table;
}

}  // namespace commtune
