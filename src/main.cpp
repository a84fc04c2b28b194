// commtune: measure, tune and compare collective communication (NCCL on GPUs, Open MPI on hosts).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "cli/compare_command.hpp"
#include "cli/export_command.hpp"
#include "cli/info_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/tune_command.hpp"
#include "cli/worker_command.hpp"
#include "core/errors.hpp"

namespace {

// Under a launcher every rank runs main; only one should print a usage error.
bool is_first_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(name)) return std::string(value) == "0";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"commtune: find how fast your GPUs (or hosts) talk, and which settings make it fastest"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("commtune ") + COMMTUNE_VERSION);
  commtune::SweepCommandOptions sweep;
  commtune::add_sweep_command(app, sweep);
  commtune::add_info_command(app);
  commtune::TuneCommandOptions tune;
  commtune::add_tune_command(app, tune);
  commtune::ExportCommandOptions export_options;
  commtune::add_export_command(app, export_options);
  commtune::CompareCommandOptions compare;
  commtune::add_compare_command(app, compare);
  commtune::WorkerCommandOptions worker;
  commtune::add_worker_command(app, worker);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = is_first_rank() ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
    return code == 0 ? 0 : 2;
  }
  try {
    if (app.got_subcommand("sweep")) return commtune::run_sweep_command(sweep, argc, argv);
    if (app.got_subcommand("info")) return commtune::run_info_command();
    if (app.got_subcommand("tune")) return commtune::run_tune_command(tune);
    if (app.got_subcommand("export")) return commtune::run_export_command(export_options);
    if (app.got_subcommand("compare")) return commtune::run_compare_command(compare);
    if (app.got_subcommand("worker")) return commtune::run_worker_command(worker);
  } catch (const commtune::ReportedError& e) {
    return e.exit_code();
  } catch (const commtune::InputError& e) {
    if (is_first_rank()) std::cerr << "commtune: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "commtune: fatal: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
