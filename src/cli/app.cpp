#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <thread>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/sweep_command.hpp"
#include "core/errors.hpp"
#include "core/message_text.hpp"
#include "host/launcher.hpp"

namespace commtune {
namespace {

// The subcommands --help lists (the internal worker is hidden): "sweep, info, tune, export, compare".
std::string visible_subcommands(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// `commtune sweeep`: CLI11 would only say that a subcommand is required.
void check_subcommand(CLI::App& app, int argc, char** argv) {
  if (argc < 2) throw InputError("a subcommand is required: " + visible_subcommands(app));
  const std::string first = argv[1];
  if (first.empty() || first[0] == '-') return;
  const auto all = app.get_subcommands([](const CLI::App*) { return true; });
  if (std::none_of(all.begin(), all.end(), [&](const CLI::App* s) { return s->check_name(first); }))
    throw InputError("unknown subcommand " + quote_text(first) + " (valid: " + visible_subcommands(app) +
                     ")");
}

std::string failure_line(const CLI::App*, const CLI::Error& e) {
  return "commtune: error: " + one_line(e.what()) + "\n";
}

// Bad input found before the launch (flags, config) is found by every rank, and only the first
// says why. Under mpirun, the first rank to exit with an error gets the whole job killed: the
// others leave after a pause, so that the first rank's line is printed before mpirun ends the
// job (it ends it as soon as the first rank exits, so nobody waits for the pause).
int input_error_exit(bool first_rank) {
  if (!first_rank) std::this_thread::sleep_for(std::chrono::seconds(10));
  return 2;
}

}  // namespace

int run_commtune(int argc, char** argv, const Wiring& wiring) {
  CLI::App app{"commtune: find how fast your GPUs (or hosts) talk, and which settings make it fastest"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("commtune ") + COMMTUNE_VERSION);
  SweepCommandOptions sweep;
  add_sweep_command(app, sweep);
  add_info_command(app);
  TuneCommandOptions tune;
  add_tune_command(app, tune);
  ExportCommandOptions export_options;
  add_export_command(app, export_options);
  CompareCommandOptions compare;
  add_compare_command(app, compare);
  DoctorCommandOptions doctor;
  add_doctor_command(app, doctor);
  ReportCommandOptions report;
  add_report_command(app, report);
  WorkloadCommandOptions workload;
  add_workload_command(app, workload);
  ReplayCommandOptions replay;
  add_replay_command(app, replay);
  WorkerCommandOptions worker;
  add_worker_command(app, worker);
  // Under a launcher every rank runs this; only one should print a usage error.
  const bool first_rank = detect_launcher().first_rank();
  app.failure_message(failure_line);  // one line, like every other bad-input message
  try {
    check_subcommand(app, argc, argv);
    app.parse(argc, argv);
  } catch (const InputError& e) {
    if (first_rank) std::cerr << "commtune: error: " << one_line(e.what()) << "\n";
    return input_error_exit(first_rank);
  } catch (const CLI::ParseError& e) {
    const int code = first_rank ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
    return code == 0 ? 0 : input_error_exit(first_rank);
  }
  try {
    if (app.got_subcommand("sweep")) return run_sweep_command(sweep, argc, argv, wiring);
    if (app.got_subcommand("info")) return run_info_command(wiring);
    if (app.got_subcommand("tune")) return run_tune_command(tune);
    if (app.got_subcommand("export")) return run_export_command(export_options);
    if (app.got_subcommand("compare")) return run_compare_command(compare);
    if (app.got_subcommand("doctor")) return run_doctor_command(doctor, argc, argv, wiring);
    if (app.got_subcommand("report")) return run_report_command(report, argc, argv);
    if (app.got_subcommand("workload")) return run_workload_command(workload);
    if (app.got_subcommand("replay")) return run_replay_command(replay, argc, argv, wiring);
    if (app.got_subcommand("worker")) return run_worker_command(worker, wiring.worker_engine);
  } catch (const ReportedError& e) {
    return e.exit_code();
  } catch (const InputError& e) {
    if (first_rank) std::cerr << "commtune: error: " << one_line(e.what()) << "\n";
    return input_error_exit(first_rank || app.got_subcommand("worker"));
  } catch (const std::exception& e) {
    std::cerr << "commtune: fatal: " << one_line(e.what()) << "\n";
    return 3;
  }
  return 0;
}

}  // namespace commtune
