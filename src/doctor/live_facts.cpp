#include "doctor/live_facts.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>

#include "host/host_facts.hpp"
#include "host/program_output.hpp"

namespace commtune {

SystemFacts live_system_facts(char** environ_list, int local_ranks) {
  SystemFacts facts;
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    facts.memlock_bytes = limit.rlim_cur;
  facts.compute_modes =
      program_output({"nvidia-smi", "--query-gpu=pci.bus_id,compute_mode", "--format=csv,noheader"},
                     std::chrono::seconds(10));
  facts.environment = relevant_environment(environ_list);
  facts.local_ranks = local_ranks;
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  facts.cores = cores > 0 ? static_cast<int>(cores) : 0;
  return facts;
}

}  // namespace commtune
