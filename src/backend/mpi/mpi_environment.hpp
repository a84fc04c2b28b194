#pragma once
// MPI's lifetime in this process: Open MPI's dynamic rules are switched on before MPI_Init (so
// that per-communicator forced algorithms work), the tool interface is opened, and both are
// closed in the order Open MPI 4.1 needs (MPI_T_finalize before MPI_Finalize).
#include <iostream>
#include <string>

#include "core/errors.hpp"
#include "core/message_text.hpp"

namespace commtune {

class MpiEnvironment {
 public:
  MpiEnvironment(int& argc, char**& argv);
  ~MpiEnvironment();
  MpiEnvironment(const MpiEnvironment&) = delete;
  MpiEnvironment& operator=(const MpiEnvironment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Set when the user had disabled coll_tuned_use_dynamic_rules: forced algorithms cannot work.
  const std::string& dynamic_rules_warning() const { return dynamic_rules_warning_; }

 private:
  int rank_ = 0, size_ = 1;
  bool tool_interface_ = false;
  std::string dynamic_rules_warning_;
};

// Runs `body` while MPI is up. Every rank throws the same InputError on bad input; rank 0 says
// why before MPI_Finalize, because once another rank has exited with an error code mpirun may
// kill rank 0 before it prints. The error then leaves as ReportedError(2).
template <typename Body>
int report_input_errors(const MpiEnvironment& environment, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    if (environment.rank() == 0) std::cerr << "commtune: error: " << one_line(e.what()) << std::endl;
    throw ReportedError(2);
  }
}

std::string mpi_error_text(int code);
// Throws BackendError naming `what` when code is not MPI_SUCCESS.
void check_mpi(int code, const char* what);

}  // namespace commtune
