# GPU tests (label "gpu"): built with the NCCL backend, skipped with a reason where no GPU is visible.
if(COMMTUNE_HAVE_NCCL)
  add_executable(gpu_kernel_tests ${CMAKE_CURRENT_LIST_DIR}/kernels_test.cpp)
  target_link_libraries(gpu_kernel_tests PRIVATE commtune_app commtune_kernels GTest::gtest_main)
  gtest_discover_tests(gpu_kernel_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS gpu)

  add_executable(gpu_sweep_tests
    ${CMAKE_CURRENT_LIST_DIR}/nccl_sweep_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nccl_types_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nccl_mpi_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nccl_doctor_test.cpp)
  target_link_libraries(gpu_sweep_tests PRIVATE commtune_app GTest::gtest_main)
  target_compile_definitions(gpu_sweep_tests PRIVATE ${COMMTUNE_NCCL_TEST_DEFINITIONS} COMMTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_definitions(gpu_sweep_tests PRIVATE COMMTUNE_FAULTS_BINARY="$<TARGET_FILE:commtune-faults>")
  add_dependencies(gpu_sweep_tests commtune commtune-faults commtune-simulated)
  gtest_discover_tests(gpu_sweep_tests DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS gpu TIMEOUT 300 ENVIRONMENT "COMMTUNE_MPIRUN=${COMMTUNE_MPIRUN_TEXT}")
  # The same tests as a dry run on simulated workers (no GPU): their command lines, configs and
  # checks hold before a GPU machine is spent on them. Some launch mpirun, hence label mpi.
  gtest_discover_tests(gpu_sweep_tests TEST_PREFIX "simulated." DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS mpi TIMEOUT 120 ENVIRONMENT "COMMTUNE_GPU_TESTS_SIMULATED=1"
    ENVIRONMENT_MODIFICATION "COMMTUNE_MPIRUN=set:${COMMTUNE_MPIRUN_TEXT}")
endif()
