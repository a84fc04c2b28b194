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
