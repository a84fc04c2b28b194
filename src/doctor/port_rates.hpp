#pragma once
// The line rates of a node's network ports that are up, for the network ceiling: active RDMA
// ports (sys/class/infiniband/*/ports/*/rate), else interfaces that are up with a known speed
// (sys/class/net/*/speed, loopback excluded).
#include <vector>

#include "doctor/system_tree.hpp"

namespace commtune {

std::vector<double> active_port_gbits(const SystemTree& tree);

}  // namespace commtune
