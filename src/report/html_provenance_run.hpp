#pragma once
// The provenance of a run, field by field, as rows a person reads: the command line, the tool, the
// launcher and its Slurm job, the config and its settings (setting -> knobs), the MPI library, the
// ceiling (path, rate, how it was obtained, the published range) and the environment (variable ->
// value). Each takes the field's label and value; a value of another shape is shown as
// html_provenance_values shows anything.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/setting.hpp"
#include "report/html_provenance_values.hpp"

namespace commtune {

void add_command(const std::string& label, const nlohmann::json& argv, ProvenanceFacts& rows);
void add_launcher(const std::string& label, const nlohmann::json& launcher, ProvenanceFacts& rows);
void add_config(const std::string& label, const nlohmann::json& config, ProvenanceFacts& rows);
void add_mpi(const std::string& label, const nlohmann::json& mpi, ProvenanceFacts& rows);
void add_ceiling(const std::string& label, const nlohmann::json& ceiling, ProvenanceFacts& rows);
void add_environment(const std::string& label, const nlohmann::json& environment, ProvenanceFacts& rows);
// The results file's settings (not provenance, but what the config asked for): setting -> knobs.
void add_settings(const std::vector<Setting>& settings, ProvenanceFacts& rows);

}  // namespace commtune
