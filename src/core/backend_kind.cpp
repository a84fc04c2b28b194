#include "core/backend_kind.hpp"

#include <array>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {
namespace {

// One row a backend, in columns.
// clang-format off
constexpr std::array<BackendTraits, kBackendCount> kBackends{{
    // kind              name    label   ceiling                  nccl-tests env file
    {BackendKind::Mpi,  "mpi",  "MPI",  CeilingKind::HostMemory, false,     "mca-params.conf",
     "start several ranks: mpirun -np N commtune sweep (or srun -n N)"},
    {BackendKind::Nccl, "nccl", "NCCL", CeilingKind::GpuPath,    true,      "nccl.conf",
     "start one rank per GPU (more GPUs visible, or --ranks N to share them), or mpirun/srun"},
}};
// clang-format on

static_assert(covers_every_backend(kBackends, &BackendTraits::kind), "one row per backend, in enum order");

}  // namespace

const BackendTraits& traits_of(BackendKind kind) { return backend_row(kBackends, kind); }

std::string_view name_of(BackendKind kind) { return traits_of(kind).name; }

std::string library_key(BackendKind kind) { return std::string(name_of(kind)); }

std::string backend_names() {
  std::string out;
  for (const BackendTraits& b : kBackends) out += (out.empty() ? "" : ", ") + std::string(b.name);
  return out;
}

BackendKind parse_backend(std::string_view text, const std::string& input) {
  for (const BackendTraits& b : kBackends)
    if (text == b.name) return b.kind;
  throw InputError(input + ": unknown backend " + quote_text(text) + " (known: " + backend_names() + ")");
}

std::optional<BackendKind> parse_backend_or_auto(std::string_view text, const std::string& input) {
  if (text == "auto") return std::nullopt;
  for (const BackendTraits& b : kBackends)
    if (text == b.name) return b.kind;
  throw InputError(input + ": unknown backend " + quote_text(text) + " (auto, " + backend_names() + ")");
}

}  // namespace commtune
