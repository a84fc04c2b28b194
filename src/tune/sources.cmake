# The tuner, the exports and the regression compare (issue 4). Pure logic goes into
# commtune_core (no MPI); the subcommands and the end-of-sweep re-measure into commtune_app.
target_sources(commtune_core PRIVATE
  tune/comparison.cpp
  tune/objective.cpp
  tune/nccl_list_syntax.cpp
  tune/ompi_algorithms.cpp
  tune/knob_scope.cpp
  tune/knob_grammar.cpp
  tune/recommendation.cpp
  tune/case_index.cpp
  tune/case_verdict.cpp
  tune/tuner.cpp
  tune/job_choice.cpp
  tune/recommendation_json.cpp
)
target_sources(commtune_core PRIVATE
  tune/export_plan.cpp
  tune/env_composition.cpp
  tune/size_rules.cpp
  tune/provenance_diff.cpp
  tune/regression_compare.cpp
)
target_sources(commtune_core PRIVATE
  report/export_writers.cpp
  report/env_file_writers.cpp
  report/export_json_writer.cpp
  report/rules_file_writers.cpp
  report/tune_summary_writer.cpp
  report/compare_writers.cpp
)
target_sources(commtune_app PRIVATE
  cli/tune_flags.cpp
  cli/tune_command.cpp
  cli/export_command.cpp
  cli/compare_command.cpp
)
target_sources(commtune_app PRIVATE
  run/confirm_round.cpp
  run/sweep_tuning.cpp
)
