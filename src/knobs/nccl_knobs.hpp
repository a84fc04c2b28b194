#pragma once
// The NCCL knobs a setting may carry, checked before anything is launched: a name commtune does
// not know, a value NCCL would refuse, or an NCCL_ALGO x NCCL_PROTO choice that leaves a
// collective of the sweep with nothing to run is an InputError (exit 2), never a hung cluster.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plan/setting.hpp"

namespace commtune {

// Knobs applied per communicator through ncclConfig_t instead of the environment (an environment
// variable would win over the config and stay cached for the process).
bool is_config_knob(std::string_view name);

// A knob's value check: throws InputError saying what is wrong with the value.
using KnobCheck = std::function<void(const std::string& value)>;
using KnobChecks = std::map<std::string, KnobCheck, std::less<>>;

// The NCCL knobs commtune sets, each with its value grammar (NCCL 2.28's environment variables and
// the ncclConfig_t fields commtune applies per communicator): the one list export may write
// (nccl_knob_table.cpp).
const KnobChecks& nccl_knob_table();
// An integer knob value, all of it (InputError otherwise).
long long parse_knob_integer(const std::string& value);

// Where a setting runs: what decides which algorithms NCCL can use at all.
struct NcclLayout {
  int nranks = 1;
  int nnodes = 1;  // NCCL's nodes: distinct host hashes (every rank with --emulate-nodes)
  // NVLink SHARP: every GPU of the job supports switch multicast (an NVSwitch system) and a node
  // has at least two of them. True where not known (the workers then find out, and say so).
  bool nvls_hardware = true;
  bool nvls_enabled = true;    // the workers' environment leaves NVLS on (no NCCL_NVLS_ENABLE=0)
  bool collnet_plugin = true;  // a net plugin with CollNet loads (NCCL_COLLNET_ENABLE=1 needs one)
};

// The element type and reduction of a sweep's cases (NVLS reduces only some of them).
struct ReduceKind {
  DataType dtype = DataType::Float32;
  ReduceOp op = ReduceOp::Sum;
};

// Why `setting` cannot run collective `c` on `layout`: every algorithm its NCCL_ALGO leaves is one
// NCCL switches off there (NVLS across nodes without CollNet, NVLSTree on one node, PAT with more
// than one GPU per node, CollNet without NCCL_COLLNET_ENABLE=1). Nothing when it can run.
std::optional<std::string> layout_conflict(const Setting& setting, Collective c, const NcclLayout& layout,
                                           const ReduceKind& kind = {});

// Whether NVLS reduces `kind` in hardware (NCCL 2.28.9 src/device.h, ncclNvlsSupported): sum, min
// and max of 32/64-bit integers, half and bfloat16; only sum of float and double; never 8-bit
// types or prod.
bool nvls_reduces(const ReduceKind& kind);

// One knob of the product's NCCL table, its value checked against the knob's grammar (the test
// build's extra knobs are not in it): what an export may write.
void validate_nccl_knob(const std::string& name, const std::string& value);

// Whether `name` is a knob of the product's NCCL table.
bool is_nccl_knob(std::string_view name);

// Every knob of `setting`, for the collectives of the sweep it applies to; `extra` adds knobs
// beyond NCCL's own (the test build's fault knob; the product has none).
void validate_nccl_setting(const Setting& setting, const std::vector<Collective>& sweep_collectives,
                           const KnobChecks& extra = {});

}  // namespace commtune
