# The scripts under scripts/ that a GPU machine runs, checked here without one: their parsing,
# their tables and their refusals (label unit), and their launches with stand-ins (label mpi).
function(commtune_script_test name label script)
  add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${script} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT 180)
endfunction()

commtune_script_test(bench_nccl_tests_parsing unit bench_nccl_tests_test.sh parse
  $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)
commtune_script_test(bench_nccl_tests_launch mpi bench_nccl_tests_test.sh launch
  $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)

# bench-overhead.sh against osu_allreduce stand-ins of OSU 5.x and 7.x (label mpi: it launches both).
commtune_script_test(bench_overhead mpi bench_overhead_test.sh $<TARGET_FILE:commtune>)

commtune_script_test(device_check_refusals unit device_check_test.sh refusals
  $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)
# The dry runs (every step end to end; the bench's, the timeout's and the skip's verdicts) run the
# GPU sweep tests in their simulated mode where the NCCL backend is built.
set(COMMTUNE_DRY_RUN_SWEEP_TESTS "")
if(COMMTUNE_HAVE_NCCL)
  set(COMMTUNE_DRY_RUN_SWEEP_TESTS $<TARGET_FILE:gpu_sweep_tests>)
endif()
foreach(mode dry-run verdicts)
  string(REPLACE "-" "_" name "device_check_${mode}")
  commtune_script_test(${name} mpi device_check_test.sh ${mode}
    $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated> ${COMMTUNE_DRY_RUN_SWEEP_TESTS})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300)
endforeach()

# bench-budget-simulated.sh on a small config: its figures, and simulated workers that spend their
# modelled times (COMMTUNE_SIMULATED_REAL_TIME).
commtune_script_test(bench_budget_simulated unit bench_budget_simulated_test.sh $<TARGET_FILE:commtune-simulated>)

# bench-paced-groups.sh: its table, on 2 ranks with few samples (label mpi: it launches them).
commtune_script_test(bench_paced_groups mpi bench_paced_groups_test.sh)

# bench-racing.sh on a small config, 2 ranks, one run (label mpi: it launches them).
commtune_script_test(bench_racing mpi bench_racing_test.sh $<TARGET_FILE_DIR:commtune>)
