#pragma once
// A racing sweep (docs/racing.md): the plan's cases in rounds of growing sampling time. Round 0
// measures every case; after each round, at each (collective, size) the tuner's rule against the
// best setting drops the clearly slower ones (tune/race.hpp), and the next round measures only
// the survivors of the sizes still undecided. Each setting is opened once and kept open across
// the rounds (sweep/session_cache: up to the backend's CostModel::sessions_kept; beyond that the
// rounds alternate their order so the kept ones are used first), and only round 0 checks the
// data. A case's rounds are pooled (their
// samples together); it is final when its setting is dropped (marked raced_out), fails, or its
// size's race ends, and only then goes to `keep`. `display` sees every round's cases. Sizes with
// one setting only are measured once, in round 0, with the full sampling.
#include "writers/result_sink.hpp"
#include "sweep/sweep_run.hpp"

namespace commtune {

// Every rank calls it in step. The returned counts are the final cases'; after an interrupt every
// case measured so far is passed on (pooled), and complete is false; so it is before an error
// (a lost peer, a control deadline) goes on up.
RunSummary run_raced_sweep(const SweepRun& run, ResultSink& display, ResultSink& keep);

}  // namespace commtune
