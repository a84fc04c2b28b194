commtune_unit_test(core_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/types_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/host_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/interrupt_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sizes_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/statistics_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contention_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stopping_rule_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_traits_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_tables_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/typed_messages_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_layout_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/groups_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_tests_habits_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/environment_knobs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_loader_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_file_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/case_json_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/results_validation_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_pattern_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/host_buffers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heap_thresholds_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/writers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_phrase_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_runner_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resume_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/budget_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/race_order_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/round_table_order_test.cpp
)

# The doctor: system checks on recorded trees, ceilings, the pairwise schedule, measured findings,
# its JSON written and read back.
commtune_unit_test(doctor_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/doctor_checks_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doctor_report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ceiling_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/efficiency_writers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pairwise_findings_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/straggler_test.cpp
)

# `commtune report`: the HTML/SVG generator and the page from fixtures, with golden files.
commtune_unit_test(html_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/html_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/html_provenance_test.cpp
)

# Workloads (issue 28): the workload file's JSON and its rules, the frameworks' presets against
# their documented defaults (docs/workload.md), with golden files.
commtune_unit_test(workload_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/workload_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workload_presets_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/workload_readers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay_test.cpp
)
