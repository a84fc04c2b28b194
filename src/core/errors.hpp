#pragma once
// Typed errors. Each carries where it happened; the CLI maps InputError to exit code 2.
#include <stdexcept>
#include <string>

namespace commtune {

// Base of every commtune error: a message that already says what failed and where.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user input: CLI flag, config file, results file, env value. Exit code 2.
class InputError : public Error {
 public:
  using Error::Error;
};

// A setting could not be applied (knob refused, worker failed to start). The sweep records it.
class SettingError : public Error {
 public:
  using Error::Error;
};

// A backend call failed while running a case (MPI error code, NCCL error text).
class BackendError : public Error {
 public:
  using Error::Error;
};

// The ranks' control plane carried a message that does not decode: a broken job, not bad input.
class ControlError : public Error {
 public:
  using Error::Error;
};

// A backend was asked for but is not available here (no GPU, built without NCCL).
class UnavailableError : public InputError {
 public:
  using InputError::InputError;
};

// The user has been told already (by rank 0, while MPI was still up); main only exits with the code.
class ReportedError : public Error {
 public:
  explicit ReportedError(int exit_code) : Error("reported"), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace commtune
