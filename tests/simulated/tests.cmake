# The test builds of the CLI with fault injection: commtune-simulated (simulated NCCL workers, no
# GPU) and, where the NCCL backend is built, commtune-faults (real NCCL workers). Never installed.
add_executable(commtune-simulated ${CMAKE_CURRENT_LIST_DIR}/simulated_main.cpp)
target_compile_definitions(commtune-simulated PRIVATE COMMTUNE_SIMULATED_ENGINE=1)
target_link_libraries(commtune-simulated PRIVATE commtune_app commtune_nccl_simulated)
set_target_properties(commtune-simulated PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
if(COMMTUNE_HAVE_NCCL)
  add_executable(commtune-faults ${CMAKE_CURRENT_LIST_DIR}/simulated_main.cpp)
  target_compile_definitions(commtune-faults PRIVATE COMMTUNE_SIMULATED_ENGINE=0)
  target_link_libraries(commtune-faults PRIVATE commtune_app commtune_nccl_simulated)
  set_target_properties(commtune-faults PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
endif()
