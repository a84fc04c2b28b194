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
