# The bad-input corpus (tests/badinput/*.txt): every input refused with exit code 2, one line on
# stderr naming it, nothing written. Launcher-free runs (label unit), the MPI subset under mpirun
# -np 2 (label mpi), and a run against a commtune that accepts everything, which must fail.
add_test(NAME badinput_corpus
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_corpus.py $<TARGET_FILE:commtune>)
set_tests_properties(badinput_corpus PROPERTIES LABELS unit TIMEOUT 300)
add_test(NAME badinput_corpus_can_fail
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_corpus.py ${CMAKE_CURRENT_LIST_DIR}/accept_everything.sh)
set_tests_properties(badinput_corpus_can_fail PROPERTIES LABELS unit TIMEOUT 300 WILL_FAIL TRUE)
add_test(NAME badinput_corpus_mpi
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_corpus.py $<TARGET_FILE:commtune> --mpirun ${COMMTUNE_MPIRUN})
set_tests_properties(badinput_corpus_mpi PROPERTIES LABELS mpi TIMEOUT 300)
# Two base files of the corpus are the writers' own output, kept byte for byte: the compare report a
# golden test pins, and a recorded nccl-tests file. When either is regenerated, its base follows.
add_test(NAME badinput_base_compare_is_the_golden
  COMMAND ${CMAKE_COMMAND} -E compare_files ${CMAKE_CURRENT_LIST_DIR}/base/compare.json
    ${PROJECT_SOURCE_DIR}/tests/golden/tune/compare.json)
add_test(NAME badinput_base_nccl_tests_is_the_fixture
  COMMAND ${CMAKE_COMMAND} -E compare_files ${CMAKE_CURRENT_LIST_DIR}/base/nccl-tests.json
    ${PROJECT_SOURCE_DIR}/tests/fixtures/nccl-tests-v3-all_reduce_perf.json)
set_tests_properties(badinput_base_compare_is_the_golden badinput_base_nccl_tests_is_the_fixture
  PROPERTIES LABELS unit TIMEOUT 30)
