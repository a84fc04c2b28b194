#include "backend/mpi/mpi_environment.hpp"

#include <mpi.h>

#include <cstdlib>
#include <cstring>

#include "core/errors.hpp"

namespace commtune {

namespace {
constexpr const char* kDynamicRules = "OMPI_MCA_coll_tuned_use_dynamic_rules";
}

MpiEnvironment::MpiEnvironment(int& argc, char**& argv) {
  const char* user_value = std::getenv(kDynamicRules);
  if (user_value == nullptr)
    ::setenv(kDynamicRules, "1", 0);
  else if (std::strcmp(user_value, "1") != 0)
    dynamic_rules_warning_ =
        std::string(kDynamicRules) + "=" + user_value + " is set: forced Open MPI algorithms will not apply";
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    throw BackendError("MPI_Init_thread failed");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  tool_interface_ = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
}

MpiEnvironment::~MpiEnvironment() {
  if (tool_interface_) MPI_T_finalize();
  MPI_Finalize();
}

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) throw BackendError(std::string(what) + " failed: " + mpi_error_text(code));
}

}  // namespace commtune
