#include "cli/commands.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "core/text_format.hpp"
#include "workload/nccl_log.hpp"
#include "workload/presets.hpp"
#include "workload/step_totals.hpp"
#include "workload/torch_trace.hpp"
#include "workload/workload_checks.hpp"
#include "workload/workload.hpp"

namespace commtune {
namespace {

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  for (; bytes >= 1024 && u < 5; ++u) bytes /= 1024;
  return u == 0 ? printf_string("%.0f B", bytes) : printf_string("%.2f %s", bytes, units[u]);
}

void write_summary(const Workload& w, std::ostream& out) {
  std::uint64_t calls = 0;
  for (const auto& c : w.collectives) calls += c.count;
  out << "workload (" << w.source.kind << "): " << calls << " collectives a step on " << w.world_ranks
      << " ranks\n";
  for (const GroupTotal& t : totals_per_group(w))
    out << "  group " << t.group.name() << " (" << t.group_ranks << " ranks): " << t.collectives
        << " collectives, " << bytes_text(t.bytes) << " a step\n";
  for (const auto& note : w.source.notes) out << "  note: " << note << "\n";
}

PresetRequest preset_request(const WorkloadCommandOptions& o) {
  PresetRequest request{.preset = o.preset, .flags = {}, .sequence_parallel = o.sequence_parallel};
  for (const std::string& flag : preset_value_flags())
    if (o.command->count(flag) > 0) request.flags[flag] = o.values.at(flag);
  return request;
}

// Exactly one source; the preset's flags only with --preset, --steps only with a log or a trace.
void check_sources(const WorkloadCommandOptions& o) {
  const bool preset = o.command->count("--preset") > 0, check = o.command->count("--check") > 0;
  const bool log = o.command->count("--nccl-log") > 0, trace = o.command->count("--torch-trace") > 0;
  if (int(preset) + int(check) + int(log) + int(trace) != 1)
    throw InputError(
        "workload: give one of --preset NAME, --nccl-log FILE..., --torch-trace FILE, --check FILE");
  if (o.command->count("--steps") > 0 && !log && !trace)
    throw InputError("--steps: the steps a --nccl-log or --torch-trace holds; only with one of them");
  if (o.command->count("--steps") > 0 && o.steps == 0)
    throw InputError("--steps: expected a whole number of 1 or more");
  if (preset) return;
  for (const std::string& flag : preset_value_flags())
    if (o.command->count(flag) > 0) throw InputError(flag + ": only with --preset");
  if (o.sequence_parallel) throw InputError("--sequence-parallel: only with --preset");
  if (check && o.command->count("--out") > 0) throw InputError("--out: --check writes nothing");
}

// The workload of the given source, checked by the rules every workload file is read with; lines
// of a log that did not parse are said (counted), never silently dropped.
Workload workload_of(const WorkloadCommandOptions& o) {
  if (o.command->count("--preset") > 0) return make_preset_workload(preset_request(o));
  Workload w = o.command->count("--nccl-log") > 0
                   ? read_nccl_logs(o.nccl_logs, NcclLogOptions{.steps = o.steps})
                   : read_torch_trace(o.torch_trace, TorchTraceOptions{.steps = o.steps});
  const std::string origin = o.nccl_logs.empty() ? o.torch_trace : o.nccl_logs.front();
  check_workload(w, origin);
  if (w.source.skipped_lines > 0)
    std::cerr << "# warning: " << origin << (o.nccl_logs.size() > 1 ? " and the other logs" : "") << ": "
              << w.source.skipped_lines << " line(s) that did not parse were skipped\n";
  return w;
}

}  // namespace

void add_workload_command(CLI::App& app, WorkloadCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("workload", "Write one training step's collectives as a workload file");
  o.command = cmd;
  cmd->add_option(
      "--preset", o.preset,
      "A framework's step from its documented defaults: ddp, zero1, zero2, zero3, fsdp, megatron-tp");
  cmd->add_option("--params", o.values["--params"], "Model parameters: 8B, 1.3B, 350M or a whole number");
  cmd->add_option("--layers", o.values["--layers"], "Transformer layers (zero3, fsdp, megatron-tp)");
  cmd->add_option("--hidden", o.values["--hidden"], "Hidden size (megatron-tp)");
  cmd->add_option("--seq", o.values["--seq"], "Sequence length (megatron-tp)");
  cmd->add_option("--micro-batch", o.values["--micro-batch"], "Micro-batch size (megatron-tp)");
  cmd->add_option("--dtype", o.values["--dtype"],
                  "Training type: bfloat16 (default), float16, float32 (fp32)");
  cmd->add_option("--tp", o.values["--tp"], "Tensor-parallel ranks, consecutive (default 1)");
  cmd->add_option("--dp", o.values["--dp"], "Data-parallel ranks; the job has tp x dp ranks");
  cmd->add_option("--bucket", o.values["--bucket"], "DDP's bucket_cap_mb in MiB (default 25)");
  cmd->add_flag("--sequence-parallel", o.sequence_parallel,
                "megatron-tp: all-gathers and reduce-scatters instead of all-reduces");
  cmd->add_option(
         "--nccl-log", o.nccl_logs,
         "A real job's NCCL log (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL), one file or the per-process "
         "files of NCCL_DEBUG_FILE; read streaming")
      ->expected(1, -1);
  cmd->add_option("--torch-trace", o.torch_trace, "A PyTorch profiler Chrome trace (torch 2.1 and later)");
  cmd->add_option("--steps", o.steps,
                  "Training steps the log or trace holds (default: found from the repeating calls)");
  cmd->add_option("--check", o.check_path, "Read a workload file, validate it and print its summary");
  cmd->add_option("--out", o.out_path, "Write the workload (JSON) here; without it, JSON on stdout");
  cmd->add_flag("--force", o.force,
                "Replace --out if it exists (never an input, never through a symbolic link)");
}

int run_workload_command(const WorkloadCommandOptions& o) {
  check_sources(o);
  if (o.command->count("--check") > 0) {
    write_summary(read_workload_file(o.check_path), std::cout);
    return 0;
  }
  const OutputPolicy policy{.force = o.force, .inputs = {}};
  if (!o.out_path.empty()) check_output_path(o.out_path, policy);  // before any work
  const Workload workload = workload_of(o);
  const std::string json = to_json(workload).dump(2) + "\n";
  if (o.out_path.empty()) {
    emit_output("", policy, [&](std::ostream& out) { out << json; });
    write_summary(workload, std::cerr);
    return 0;
  }
  write_output_file(o.out_path, json, policy);
  write_summary(workload, std::cout);
  std::cerr << "commtune: workload written to " << o.out_path << "\n";
  return 0;
}

}  // namespace commtune
