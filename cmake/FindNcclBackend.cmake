# Looks for CUDA and NCCL (on our machines both live in the standard CUDA location) and sets
# COMMTUNE_HAVE_NCCL plus the imported target commtune::nccl when both are usable.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
find_package(CUDAToolkit QUIET)
if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME PATH_SUFFIXES lib lib64)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    enable_language(CUDA)
    add_library(commtune::nccl UNKNOWN IMPORTED)
    set_target_properties(commtune::nccl PROPERTIES
      IMPORTED_LOCATION "${NCCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
    set(COMMTUNE_HAVE_NCCL ON)
    message(STATUS "commtune: NCCL backend ON (${NCCL_LIBRARY}, CUDA ${CUDAToolkit_VERSION})")
  endif()
endif()
if(NOT COMMTUNE_HAVE_NCCL)
  message(STATUS "commtune: NCCL backend OFF (CUDA compiler or NCCL not found)")
endif()
