# The NCCL backend's GPU side (built when CUDA and NCCL are found): the worker's NCCL engine,
# device buffers, error texts and the GPU probe. Host-side supervision is in host_sources.cmake.
target_sources(commtune_app PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gpu_probe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_types.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_case.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_engine.cpp
)
target_link_libraries(commtune_app PUBLIC CUDA::cudart commtune::nccl)
# commtune_kernels (kernels/sources.cmake) is added by the top-level list after this directory.
target_include_directories(commtune_app PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
