#include "doctor/system_checks.hpp"

namespace commtune {
namespace {

std::optional<std::string> value_of(const SystemFacts& facts, const std::string& name) {
  const auto it = facts.environment.find(name);
  if (it == facts.environment.end()) return std::nullopt;
  return it->second;
}

bool truthy(const std::optional<std::string>& v) { return v && !v->empty() && *v != "0"; }

void disabled_path(const SystemFacts& facts, const char* name, Severity severity, const std::string& what,
                   std::vector<Finding>& out) {
  const auto v = value_of(facts, name);
  if (!truthy(v)) return;
  out.push_back(Finding{"nccl-env-disables-path", severity, name,
                        std::string(name) + "=" + *v + " is set: " + what,
                        std::string("unset ") + name +
                            " unless it works around a known fault (then say why in the job script)"});
}

}  // namespace

std::vector<Finding> check_environment(const SystemFacts& facts, const std::vector<RdmaPort>& ports) {
  std::vector<Finding> out;
  bool active_rdma = false;
  for (const auto& p : ports) active_rdma = active_rdma || p.state.find("ACTIVE") != std::string::npos;
  disabled_path(facts, "NCCL_P2P_DISABLE", Severity::Critical,
                "GPUs of a node talk through host memory instead of NVLink / PCIe P2P", out);
  disabled_path(facts, "NCCL_SHM_DISABLE", Severity::Warning,
                "ranks of a node without P2P fall back to the network", out);
  disabled_path(facts, "NCCL_IB_DISABLE", active_rdma ? Severity::Critical : Severity::Info,
                active_rdma ? "the RDMA NICs of this node go unused (TCP sockets instead)"
                            : "no RDMA NIC is active here anyway",
                out);
  if (const auto net = value_of(facts, "NCCL_NET");
      net && active_rdma && (*net == "Socket" || *net == "socket"))
    out.push_back(Finding{"nccl-env-disables-path", Severity::Critical, "NCCL_NET",
                          "NCCL_NET=" + *net + " while RDMA ports are active",
                          "unset NCCL_NET (or set it to IB) so NCCL uses the RDMA NICs"});
  const bool oversubscribed = facts.cores > 0 && facts.local_ranks > facts.cores;
  const bool yields =
      facts.mpi_yield_when_idle.value_or(truthy(value_of(facts, "OMPI_MCA_mpi_yield_when_idle")));
  if (oversubscribed && !yields)
    out.push_back(Finding{
        "mpi-oversubscribed-no-yield", Severity::Warning, "MPI ranks on this node",
        std::to_string(facts.local_ranks) + " ranks on " + std::to_string(facts.cores) +
            " cores and mpi_yield_when_idle is off: busy-polling ranks steal the cores their peers need",
        "run with `--mca mpi_yield_when_idle 1` (or OMPI_MCA_mpi_yield_when_idle=1), or fewer ranks per "
        "node"});
  return out;
}

}  // namespace commtune
