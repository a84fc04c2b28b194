#include "backend/mpi/mpi_control_variables.hpp"

#include <mpi.h>

#include <charconv>

#include "backend/mpi/mpi_environment.hpp"
#include "core/errors.hpp"

namespace commtune {
namespace {

std::vector<std::pair<int, std::string>> enumerators_of(MPI_T_enum enumtype) {
  std::vector<std::pair<int, std::string>> out;
  if (enumtype == MPI_T_ENUM_NULL) return out;
  int count = 0;
  char name[256];
  int name_length = sizeof name;
  if (MPI_T_enum_get_info(enumtype, &count, name, &name_length) != MPI_SUCCESS) return out;
  for (int i = 0; i < count; ++i) {
    int value = 0;
    char item[256];
    int item_length = sizeof item;
    if (MPI_T_enum_get_item(enumtype, i, &value, item, &item_length) == MPI_SUCCESS)
      out.emplace_back(value, item);
  }
  return out;
}

class Handle {
 public:
  explicit Handle(int index) {
    int count = 0;
    check_mpi(MPI_T_cvar_handle_alloc(index, nullptr, &handle_, &count), "MPI_T_cvar_handle_alloc");
  }
  ~Handle() { MPI_T_cvar_handle_free(&handle_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  MPI_T_cvar_handle get() const { return handle_; }

 private:
  MPI_T_cvar_handle handle_{};
};

}  // namespace

std::optional<ControlVariable> find_control_variable(const std::string& name) {
  int index = -1;
  if (MPI_T_cvar_get_index(name.c_str(), &index) != MPI_SUCCESS) return std::nullopt;
  char found_name[256], description[1024];
  int name_length = sizeof found_name, description_length = sizeof description;
  int verbosity = 0, bind = 0, scope = 0;
  MPI_Datatype type;
  MPI_T_enum enumtype;
  check_mpi(MPI_T_cvar_get_info(index, found_name, &name_length, &verbosity, &type, &enumtype, description,
                                &description_length, &bind, &scope),
            "MPI_T_cvar_get_info");
  if (type != MPI_INT) throw InputError("Open MPI variable '" + name + "' is not an integer variable");
  ControlVariable variable;
  variable.index = index;
  variable.name = name;
  variable.writable = scope != MPI_T_SCOPE_CONSTANT && scope != MPI_T_SCOPE_READONLY;
  variable.enumerators = enumerators_of(enumtype);
  return variable;
}

int control_value(const ControlVariable& variable, const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool numeric = ec == std::errc() && end == text.data() + text.size();
  for (const auto& [number, name] : variable.enumerators)
    if ((numeric && number == value) || name == text) return number;
  if (numeric && variable.enumerators.empty()) return value;
  std::string known;
  for (const auto& [number, name] : variable.enumerators)
    known += (known.empty() ? "" : ", ") + std::to_string(number) + "=" + name;
  throw InputError("value '" + text + "' is not valid for " + variable.name + " (valid: " + known + ")");
}

int read_control_variable(const ControlVariable& variable) {
  Handle handle(variable.index);
  int value = 0;
  check_mpi(MPI_T_cvar_read(handle.get(), &value), "MPI_T_cvar_read");
  return value;
}

void write_control_variable(const ControlVariable& variable, int value) {
  Handle handle(variable.index);
  const int code = MPI_T_cvar_write(handle.get(), &value);
  if (code != MPI_SUCCESS)
    throw SettingError("MPI_T_cvar_write " + variable.name + "=" + std::to_string(value) +
                       " refused: " + mpi_error_text(code));
}

}  // namespace commtune
