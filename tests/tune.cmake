# Tuner, exports and compare: unit tests with synthetic data and recorded fixtures,
# golden outputs under tests/golden/tune, and MPI runs under tests/tune/*.sh.
commtune_unit_test(tune_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/tune/tune_test_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/aa_soundness_test.cpp
)
target_sources(tune_unit_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/tune/tuner_rules_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/group_tune_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/workload_tune_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/knob_grammar_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/export_golden_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/compare_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/incomplete_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/nccl_choice_tune_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/run_verdict_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/run_permutation_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/launch_tune_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/repeat_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/nccl_tests_json_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/race_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/race_rounds_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/confirm_pruning_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tune/decision_agreement_test.cpp
)
commtune_mpi_test(tune_mpi_aa_soundness tune/mpi_aa_soundness.sh)
commtune_mpi_test(tune_mpi_roundtrip tune/mpi_tune_roundtrip.sh)
commtune_mpi_test(tune_mpi_compare tune/mpi_compare.sh)
add_test(NAME tune_output_safety COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tune/output_safety.sh $<TARGET_FILE:commtune>)
set_tests_properties(tune_output_safety PROPERTIES LABELS unit TIMEOUT 120 ENVIRONMENT "COMMTUNE_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
