#include "host/launcher.hpp"

#include <charconv>
#include <initializer_list>

extern char** environ;

namespace commtune {
namespace {

using Environment = std::map<std::string, std::string>;

std::optional<int> number(const std::string& text) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// The first of `names` that is set and is a rank number.
std::optional<int> first_number(const Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const auto it = env.find(name); it != env.end())
      if (const auto value = number(it->second)) return value;
  return std::nullopt;
}

bool any_set(const Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (env.count(name)) return true;
  return false;
}

}  // namespace

Launcher detect_launcher(const Environment& env) {
  Launcher launcher;
  launcher.mpi = any_set(env, {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"});
  launcher.rank = first_number(env, {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"});
  launcher.local_rank = first_number(env, {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
  return launcher;
}

Launcher detect_launcher() {
  Environment env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::size_t equals = text.find('=');
    if (equals != std::string::npos) env.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return detect_launcher(env);
}

}  // namespace commtune
