#include "launch/backend_launches.hpp"

#include "backend/mpi/mpi_backend.hpp"
#include "control/mpi_control_plane.hpp"
#include "backend/nccl/worker/gpu_probe.hpp"
#include "host/provenance.hpp"
#include "launch/gather_ceiling.hpp"
#include "writers/layout_phrase.hpp"
#include "sweep/sweep_session.hpp"

namespace commtune {

int run_mpi_sweep(const SweepLaunch& launch) {
  int argc = launch.argc;
  char** argv = launch.argv;
  MpiEnvironment environment(argc, argv);
  return report_input_errors(environment, [&] {
    MpiControlPlane control;
    const auto copy = measure_host_copy_quietly(control.comm());
    MpiBackend backend(environment, control.comm());
    validate_settings(backend, launch.config);
    if (launch.check_job) launch.check_job(backend.limits());
    const Plan plan = plan_sweep(launch.config, backend);
    nlohmann::json provenance = launch_provenance(launch);
    provenance[library_key(BackendKind::Mpi)] = backend.provenance();
    provenance["nccl_runtime"] = nccl_runtime_version();  // where this build has NCCL; "not built" otherwise
    provenance["layout"] = rank_layout(control, {RankPlace{control.rank(), control.locality().local_rank,
                                                           "cpu", launch.launcher.local_rank}});
    PathFacts path;
    path.backend = BackendKind::Mpi;
    if (const auto ceiling = gather_ceiling(control, path, copy)) provenance["ceiling"] = to_json(*ceiling);
    const std::string banner =
        launch.choice.reason + ", " + layout_phrase(control.size(), provenance["layout"]);
    SweepReport report{launch.out_path, provenance, banner, std::chrono::seconds(300), launch.resume_path};
    report.html_report = launch.html_report;
    return launch.session(plan, backend, control, report);
  });
}

}  // namespace commtune
