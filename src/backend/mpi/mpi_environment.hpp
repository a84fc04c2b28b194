#pragma once
// MPI's lifetime in this process: Open MPI's dynamic rules are switched on before MPI_Init (so
// that per-communicator forced algorithms work), the tool interface is opened, and both are
// closed in the order Open MPI 4.1 needs (MPI_T_finalize before MPI_Finalize).
#include <string>

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

std::string mpi_error_text(int code);
// Throws BackendError naming `what` when code is not MPI_SUCCESS.
void check_mpi(int code, const char* what);

}  // namespace commtune
