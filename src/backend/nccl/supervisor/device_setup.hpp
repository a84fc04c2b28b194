#pragma once
// Pieces of an NCCL sweep shared by both control planes: the device probe (a short-lived worker
// tells what GPUs, driver, CUDA and NCCL this host has, so the supervisor never holds a CUDA
// context) and the facts every supervisor must agree on before planning.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/nccl/supervisor/nccl_backend.hpp"
#include "plan/sweep_options.hpp"
#include "control/control_plane.hpp"

namespace commtune {

// Every setting of the config, checked before anything is launched (InputError names the setting).
void validate_nccl_settings(const SweepConfig& config, const KnobChecks& extra = {});

WorkerCommand this_worker_command();

// Asks one worker for this host's device facts; throws UnavailableError when it cannot.
nlohmann::json probe_devices(const WorkerCommand& command, const NcclRunOptions& run);
int device_count(const nlohmann::json& probe);

// Devices for the workers of local ranks first_local_rank.. on the `gpus` visible GPUs: local rank
// modulo the visible GPUs, so one visible GPU per task (srun --gpus-per-task=1, a per-rank
// CUDA_VISIBLE_DEVICES) maps every task to its own device 0. Sharing is judged later, on the real
// GPUs (placement_facts). Throws UnavailableError when no GPU is visible.
std::vector<int> devices_for(int first_local_rank, int local_ranks, int gpus);

// Where one worker runs: its host and its GPU's PCI bus id, as NCCL tells GPUs apart.
struct WorkerPlace {
  int rank = 0;
  std::string host;
  std::string pci_bus_id;
};

struct PlacementFacts {
  int ranks_per_device = 1;  // most workers on one GPU of one host
  int nnodes = 1;            // NCCL's nodes: hosts, or every rank with --emulate-nodes
  // The host of every rank (index: rank), numbered in order of each host's lowest rank: the
  // nodes of communicator groups (plan/groups.hpp), hosts even with --emulate-nodes.
  std::vector<int> node_of_rank;
  std::optional<std::string> refusal;  // two ranks on one GPU without --emulate-nodes (NCCL refuses it)
};

PlacementFacts placement_facts(const std::vector<WorkerPlace>& workers, bool emulate_nodes);

// Whether NCCL can use NVLS: every worker's GPU supports switch multicast (the probe's "multicast",
// true where the probe could not tell) and every node has two or more distinct GPUs in the job
// (never with emulated nodes: each rank is its own node). `supervisors`: the gathered facts.
bool nvls_hardware(const nlohmann::json& supervisors, bool emulate_nodes);

struct AgreedDeviceFacts {
  std::uint64_t device_memory_bytes = 0;  // least total memory of any device used, all hosts
  int ranks_per_device = 1;
  int nnodes = 1;
  std::vector<int> node_of_rank;  // PlacementFacts::node_of_rank
  bool nvls_hardware = true;      // NVLink SHARP possible: see nvls_hardware()
  nlohmann::json provenance;      // rank 0 only
};

// Every supervisor offers its workers' devices; all get the same facts, or the same InputError
// when ranks would share a GPU without --emulate-nodes.
AgreedDeviceFacts agree_device_facts(ControlPlane& control, const SupervisorLayout& layout,
                                     const nlohmann::json& probe, const NcclRunOptions& run);

}  // namespace commtune
