# NCCL backend tests. Unit and fault-injection tests run everywhere (simulated workers, no GPU,
# no NCCL at run time); GPU tests are labelled "gpu" and skip with a reason where no GPU is visible.
set(COMMTUNE_NCCL_TEST_DEFINITIONS COMMTUNE_BINARY="$<TARGET_FILE:commtune>"
    COMMTUNE_SIMULATED_BINARY="$<TARGET_FILE:commtune-simulated>")

commtune_unit_test(nccl_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/nccl_knobs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/worker_protocol_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/batch_timing_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/supervision_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/replay_steps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/nccl_pairwise_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/layout_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/nccl_choice_test.cpp
)
target_compile_definitions(nccl_unit_tests PRIVATE ${COMMTUNE_NCCL_TEST_DEFINITIONS})
add_dependencies(nccl_unit_tests commtune commtune-simulated)

# Whole sweeps through the local control plane: label unit (seconds, no MPI, no GPU).
add_executable(nccl_fault_tests ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/sweep_faults_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/doctor_nccl_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/nccl_choice_sweep_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/nccl_tests_flags_sweep_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/environment_sweep_test.cpp)
target_link_libraries(nccl_fault_tests PRIVATE commtune_results commtune_nccl_simulated commtune_tuner_rules GTest::gtest_main)
target_compile_definitions(nccl_fault_tests PRIVATE ${COMMTUNE_NCCL_TEST_DEFINITIONS} COMMTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  COMMTUNE_TUNER_PLUGIN_PATH="$<TARGET_FILE:nccl-tuner-commtune>")
add_dependencies(nccl_fault_tests commtune commtune-simulated nccl-tuner-commtune)
gtest_discover_tests(nccl_fault_tests DISCOVERY_TIMEOUT 60
  PROPERTIES LABELS unit TIMEOUT 120)

# The same under mpirun -np 2: two supervisors, and a peer supervisor that dies or hangs.
add_executable(nccl_mpi_fault_tests ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/mpi_faults_test.cpp)
target_link_libraries(nccl_mpi_fault_tests PRIVATE commtune_results GTest::gtest_main)
target_compile_definitions(nccl_mpi_fault_tests PRIVATE ${COMMTUNE_NCCL_TEST_DEFINITIONS} COMMTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(nccl_mpi_fault_tests commtune commtune-simulated)
string(REPLACE ";" " " COMMTUNE_MPIRUN_TEXT "${COMMTUNE_MPIRUN}")
gtest_discover_tests(nccl_mpi_fault_tests DISCOVERY_TIMEOUT 60
  PROPERTIES LABELS mpi TIMEOUT 180 ENVIRONMENT "COMMTUNE_MPIRUN=${COMMTUNE_MPIRUN_TEXT}")

include(${CMAKE_CURRENT_LIST_DIR}/gpu/tests.cmake OPTIONAL)

# The device probe against a fake CUDA runtime (no GPU, no libcudart): where the NCCL backend is
# built, since it compiles the probe's source with CUDA's headers.
if(COMMTUNE_HAVE_NCCL)
  add_executable(cuda_probe_tests ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/cuda_probe_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/unit/nccl/fake_cudart.cpp ${PROJECT_SOURCE_DIR}/src/backend/nccl/worker/cuda_probe.cpp)
  target_include_directories(cuda_probe_tests PRIVATE ${PROJECT_SOURCE_DIR}/src
    $<TARGET_PROPERTY:CUDA::cudart,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(cuda_probe_tests PRIVATE commtune_core nlohmann_json::nlohmann_json GTest::gtest_main ${CMAKE_DL_LIBS})
  gtest_discover_tests(cuda_probe_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
endif()
