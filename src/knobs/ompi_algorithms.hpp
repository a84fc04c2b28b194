#pragma once
// Open MPI coll/tuned facts the exports need without MPI_Init: the MCA name of each collective,
// its COLLTYPE id in the dynamic rules file, and the algorithm enumerators of Open MPI 4.1
// (`ompi_info --param coll tuned --level 9`). Numbers are what the exports write, since every
// Open MPI version accepts them.
#include <optional>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace commtune {

// allreduce, allgather, bcast, reduce_scatter_block (the MPI call the host backend makes).
std::string ompi_collective_key(Collective c);
// COLLTYPE_T in ompi/mca/coll/base/coll_base_functions.h: allgather 0, allreduce 2, bcast 7,
// reduce_scatter_block 13.
int ompi_collective_id(Collective c);
// The collective a `coll_tuned_<key>_algorithm[...]` variable belongs to.
std::optional<Collective> ompi_knob_collective(std::string_view knob);
// True for `coll_tuned_<key>_algorithm` itself (not its segment size or fan-out companions).
bool is_ompi_algorithm_knob(std::string_view knob);
// "ring" or "4" -> 4 for that collective; nullopt when neither a known name nor a valid number.
std::optional<int> ompi_algorithm_number(Collective c, std::string_view value);

}  // namespace commtune
