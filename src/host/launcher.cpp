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

std::string value_of(const Environment& env, const char* name) {
  const auto it = env.find(name);
  return it == env.end() ? "" : it->second;
}

std::string launcher_name(const Environment& env, bool mpi) {
  if (env.count("OMPI_COMM_WORLD_SIZE")) return "mpirun";  // orted sets it; srun's direct launch does not
  if (!mpi) return "none";
  return env.count("SLURM_STEP_ID") ? "srun" : "pmi";
}

std::optional<SlurmJob> slurm_job(const Environment& env, bool srun) {
  if (!env.count("SLURM_JOB_ID")) return std::nullopt;
  SlurmJob job{value_of(env, "SLURM_JOB_ID"),
               value_of(env, "SLURM_JOB_NODELIST"),
               first_number(env, {"SLURM_JOB_NUM_NODES"}),
               "",
               "",
               std::nullopt,
               ""};
  if (srun) {
    job.step_id = value_of(env, "SLURM_STEP_ID");
    job.step_nodelist = value_of(env, "SLURM_STEP_NODELIST");
    job.ntasks = first_number(env, {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"});
    job.tasks_per_node = value_of(env, "SLURM_STEP_TASKS_PER_NODE");
  }
  return job;
}

std::optional<TorchRun> torch_run(const Environment& env) {
  if (!env.count("TORCHELASTIC_RUN_ID")) return std::nullopt;
  return TorchRun{value_of(env, "TORCHELASTIC_RUN_ID"), first_number(env, {"WORLD_SIZE"}),
                  first_number(env, {"LOCAL_WORLD_SIZE"})};
}

}  // namespace

Launcher detect_launcher(const Environment& env) {
  Launcher launcher;
  launcher.mpi = any_set(env, {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"});
  launcher.name = launcher_name(env, launcher.mpi);
  launcher.rank = first_number(env, {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"});
  launcher.local_rank = first_number(env, {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
  launcher.slurm = slurm_job(env, launcher.name == "srun");
  launcher.torchrun = torch_run(env);
  if (launcher.torchrun && !launcher.mpi) launcher.rank = first_number(env, {"RANK"});
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
