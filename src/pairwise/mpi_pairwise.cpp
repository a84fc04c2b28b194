#include "pairwise/mpi_pairwise.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "pairwise/round_robin.hpp"

namespace commtune {
namespace {

struct Members {
  MPI_Comm comm = MPI_COMM_NULL;  // MPI_COMM_NULL: this rank only waits
  std::string unit;
};

// The first rank of each node when there are several nodes; every rank on one node.
Members choose_members(MPI_Comm world, int local_rank, int nnodes) {
  const bool one_node = nnodes == 1;
  int world_rank = 0;
  MPI_Comm_rank(world, &world_rank);
  Members m{MPI_COMM_NULL, one_node ? "rank" : "node"};
  const int colour = one_node || local_rank == 0 ? 0 : MPI_UNDEFINED;
  MPI_Comm_split(world, colour, world_rank, &m.comm);
  return m;
}

double exchange_seconds(MPI_Comm comm, int partner, std::vector<char>& out, std::vector<char>& in,
                        int count) {
  const double start = MPI_Wtime();
  for (int k = 0; k < count; ++k)
    MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_BYTE, partner, 7, in.data(),
                 static_cast<int>(in.size()), MPI_BYTE, partner, 7, comm, MPI_STATUS_IGNORE);
  return MPI_Wtime() - start;
}

PairEntry measure_with(MPI_Comm comm, int partner, const PairwiseOptions& o) {
  std::vector<char> small_out(8, 1), small_in(8), big_out(o.bytes, 2), big_in(o.bytes);
  PairEntry e;
  exchange_seconds(comm, partner, big_out, big_in, 1);  // warm-up: connections, page faults
  for (int s = 0; s < o.samples; ++s)
    e.latency_us.push_back(exchange_seconds(comm, partner, small_out, small_in, o.latency_exchanges) /
                           o.latency_exchanges * 1e6);
  for (int s = 0; s < o.samples; ++s)
    e.gbps.push_back(static_cast<double>(o.bytes) * o.exchanges /
                     exchange_seconds(comm, partner, big_out, big_in, o.exchanges) / 1e9);
  return e;
}

std::string row_text(const std::vector<PairEntry>& row) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& e : row) j.push_back({{"gbps", e.gbps}, {"latency_us", e.latency_us}});
  return j.dump();
}

std::vector<PairEntry> row_from(const std::string& text) {
  std::vector<PairEntry> row;
  for (const auto& e : nlohmann::json::parse(text))
    row.push_back(
        PairEntry{e.at("gbps").get<std::vector<double>>(), e.at("latency_us").get<std::vector<double>>()});
  return row;
}

std::string member_name(const Members& m, int rank) {
  if (m.unit == "rank") return "rank " + std::to_string(rank);
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

}  // namespace

std::optional<PairMatrix> measure_pairwise(MPI_Comm world, int local_rank, int nnodes,
                                           const PairwiseOptions& o,
                                           const std::optional<std::vector<Round>>& rounds) {
  Members m = choose_members(world, local_rank, nnodes);
  std::optional<PairMatrix> result;
  if (m.comm != MPI_COMM_NULL) {
    int me = 0, n = 1;
    MPI_Comm_rank(m.comm, &me);
    MPI_Comm_size(m.comm, &n);
    std::vector<PairEntry> row(static_cast<std::size_t>(n));
    for (const Round& round : rounds ? *rounds : round_robin_rounds(n)) {
      sleeping_barrier(m.comm);
      for (const auto& [a, b] : round)
        if (a == me || b == me)
          row[static_cast<std::size_t>(a == me ? b : a)] = measure_with(m.comm, a == me ? b : a, o);
    }
    const std::string mine = nlohmann::json{{"name", member_name(m, me)}, {"row", row_text(row)}}.dump();
    if (me == 0) {
      std::vector<std::string> names{member_name(m, 0)};
      std::vector<std::vector<PairEntry>> rows{row};
      for (int r = 1; r < n; ++r) {
        MPI_Status status;
        MPI_Probe(r, 8, m.comm, &status);
        int length = 0;
        MPI_Get_count(&status, MPI_CHAR, &length);
        std::string text(static_cast<std::size_t>(length), '\0');
        MPI_Recv(text.data(), length, MPI_CHAR, r, 8, m.comm, MPI_STATUS_IGNORE);
        const nlohmann::json j = nlohmann::json::parse(text);
        names.push_back(j.at("name").get<std::string>());
        rows.push_back(row_from(j.at("row").get<std::string>()));
      }
      result = empty_matrix(names, m.unit, o.bytes);
      result->entries = rows;
    } else {
      MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, 8, m.comm);
    }
    MPI_Comm_free(&m.comm);
  }
  sleeping_barrier(world);
  return result;
}

void sleeping_barrier(MPI_Comm comm, std::chrono::microseconds poll) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    std::this_thread::sleep_for(poll);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

}  // namespace commtune
