# commtune_kernels: the CUDA fill / verify kernels, a static library linked by the NCCL worker.
add_library(commtune_kernels STATIC ${CMAKE_CURRENT_LIST_DIR}/fill_verify.cu ${CMAKE_CURRENT_LIST_DIR}/contention.cu)
target_include_directories(commtune_kernels PUBLIC ${CMAKE_CURRENT_LIST_DIR} ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(commtune_kernels PUBLIC CUDA::cudart)
set_target_properties(commtune_kernels PROPERTIES
  CUDA_ARCHITECTURES "80;90"
  CUDA_STANDARD 17
  CUDA_STANDARD_REQUIRED ON
  POSITION_INDEPENDENT_CODE ON)
# The project's -Wall -Wextra -Wpedantic are host-compiler flags: nvcc gets them through -Xcompiler.
set_property(TARGET commtune_kernels PROPERTY COMPILE_OPTIONS "")
target_compile_options(commtune_kernels PRIVATE -Xcompiler=-Wall,-Wextra)
