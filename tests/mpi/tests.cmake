add_executable(results_check ${CMAKE_CURRENT_LIST_DIR}/results_check.cpp)
target_link_libraries(results_check PRIVATE commtune_results)

commtune_mpi_test(mpi_sweep_ranks mpi/sweep_ranks.sh)
commtune_mpi_test(mpi_forced_algorithms mpi/forced_algorithms.sh)
commtune_mpi_test(mpi_bad_input mpi/bad_input.sh)
commtune_mpi_test(mpi_interrupt mpi/interrupt.sh)
commtune_mpi_test(mpi_doctor mpi/doctor.sh)
commtune_mpi_test(mpi_straggler mpi/straggler.sh)
