# The NCCL backend's host side: supervisors, workers' protocol loop, watchdog, control planes,
# knob validation and the simulated worker. Plain C++: built with or without CUDA, so the whole
# supervision machinery is tested on machines without a GPU.
target_sources(commtune_app PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/algo_grammar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_knobs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_agreement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_backend.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_setting_session.cpp
  ${PROJECT_SOURCE_DIR}/src/run/test_faults.cpp
  ${PROJECT_SOURCE_DIR}/src/run/worker_protocol.cpp
  ${PROJECT_SOURCE_DIR}/src/run/worker_process.cpp
  ${PROJECT_SOURCE_DIR}/src/run/worker_group.cpp
  ${PROJECT_SOURCE_DIR}/src/run/worker_loop.cpp
  ${PROJECT_SOURCE_DIR}/src/run/fake_worker_engine.cpp
  ${PROJECT_SOURCE_DIR}/src/run/deadline_control_plane.cpp
  ${PROJECT_SOURCE_DIR}/src/run/program_output.cpp
  ${PROJECT_SOURCE_DIR}/src/run/gpu_host_facts.cpp
  ${PROJECT_SOURCE_DIR}/src/run/nccl_supervision.cpp
  ${PROJECT_SOURCE_DIR}/src/run/nccl_sweep.cpp
  ${PROJECT_SOURCE_DIR}/src/cli/worker_command.cpp
)
find_package(Threads REQUIRED)
target_link_libraries(commtune_app PUBLIC Threads::Threads)
# Without NCCL, the worker's real engine says it is unavailable.
if(NOT COMMTUNE_HAVE_NCCL)
  target_sources(commtune_app PRIVATE ${CMAKE_CURRENT_LIST_DIR}/nccl_engine_none.cpp)
endif()
