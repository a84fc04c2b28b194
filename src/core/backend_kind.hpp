#pragma once
// Which backend measures: the one identity every layer keys by, parsed once from its spelling (the
// CLI's --backend, a config's "backend", a results file's or a recommendation's "backend"); nothing
// compares backend names as strings. What a layer needs to know of a backend is a column here (the
// facts below the backends) or a row of that layer's own table keyed by BackendKind, each checked to
// have one row per backend when it is compiled (docs/architecture.md, "A new backend").
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace commtune {

enum class BackendKind { Mpi, Nccl };
// The last backend: a new one goes after it and moves this line.
inline constexpr BackendKind kLastBackend = BackendKind::Nccl;
inline constexpr std::size_t kBackendCount = static_cast<std::size_t>(kLastBackend) + 1;

// A table keyed by backend: kBackendCount rows in enum order, `backend_of` naming each row's
// backend; `static_assert(covers_every_backend(table, &Row::field))` makes a missing, extra or
// misplaced row a build error, and `backend_row` then indexes the table directly.
template <typename Row, std::size_t N>
constexpr bool covers_every_backend(const std::array<Row, N>& rows, BackendKind Row::*backend_of) {
  if (N != kBackendCount) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(rows[i].*backend_of) != i) return false;
  return true;
}

template <typename Row>
constexpr const Row& backend_row(const std::array<Row, kBackendCount>& rows, BackendKind kind) {
  return rows[static_cast<std::size_t>(kind)];
}

// The physical ceiling a backend's bandwidth is held against (ceiling/).
enum class CeilingKind { HostMemory, GpuPath };

struct BackendTraits {
  BackendKind kind;
  std::string_view name;        // "mpi", "nccl": the spelling of the CLI, configs and every file
  std::string_view label;       // "MPI", "NCCL": for people
  CeilingKind ceiling;          // host memory copies, or the GPUs' path (NVLink, PCIe, network)
  bool nccl_tests_columns;      // the table prints nccl-tests' columns (#wrong per half, busbw)
  std::string_view env_file;    // the file `export --format env-file` writes beside the job
  std::string_view more_ranks;  // how to start a sweep of several ranks, for a one-rank run
};
// A results file's provenance keeps the collective library's facts under the backend's name
// ("mpi": Open MPI's version and build, "nccl": NCCL's): the key, as a string.
std::string library_key(BackendKind kind);

const BackendTraits& traits_of(BackendKind kind);
std::string_view name_of(BackendKind kind);

// Throws InputError naming `input` ("--backend", "r.json: backend") for any other spelling.
BackendKind parse_backend(std::string_view text, const std::string& input);
// "auto" (nullopt: the launch chooses) or a backend.
std::optional<BackendKind> parse_backend_or_auto(std::string_view text, const std::string& input);

// "mpi, nccl": the known names, for messages and --help.
std::string backend_names();

}  // namespace commtune
