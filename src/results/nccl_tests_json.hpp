#pragma once
// nccl-tests' own JSON output (`all_reduce_perf -J file.json`, format version 3, as written by
// src/util.cu in nccl-tests 2.19), read as a results document so that compare can put an nccl-tests
// history against a commtune run. Every size becomes two cases of the setting "default" (out of
// place, in place) measured with nccl-tests' time ("time": its timed-loop time / iterations,
// mean over ranks): nccl_tests_us, its bandwidths, and nwrong. The benchmark cycles of `-N`
// (the sizes listed again) are its runs: nccl_tests_run_us. Where the file has the per-iteration
// report (`-I 1`), time_us summarises those iterations; else it is the one figure.
//
// Validation names the file and the JSON path of the first problem: version 3; args[0] one of
// all_reduce_perf, all_gather_perf, broadcast_perf, reduce_scatter_perf; config.nthreads, ngpus
// and devices; each result's size, count (as the collective implies), type, redop, root; each
// half null or an object with a time (not cpu_time) > 0 or "nan" (a failed case), alg_bw and
// bus_bw >= 0, nwrong an integer >= 0 or null (not checked).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/types.hpp"

#include "results/results_document.hpp"

namespace commtune {

inline constexpr int kNcclTestsJsonVersion = 3;

// Whether a parsed JSON document looks like nccl-tests' output (a "version" and "results").
bool is_nccl_tests_json(const nlohmann::json& document);

// The nccl-tests program that runs a collective ("all_reduce_perf" for allreduce).
std::string_view nccl_tests_program(Collective c);

ResultsDocument nccl_tests_from_json(const nlohmann::json& document, const std::string& origin);

}  // namespace commtune
