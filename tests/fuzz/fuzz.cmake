# libFuzzer targets for the readers of user files (scripts/fuzz.sh builds and runs them).
# The whole tree of this build is compiled with -fsanitize=fuzzer-no-link,address,undefined (see
# the top-level CMakeLists.txt); the targets link libFuzzer's main.
foreach(target fuzz_config fuzz_results fuzz_recommendation fuzz_workload fuzz_nccl_log fuzz_torch_trace fuzz_replay)
  add_executable(${target} ${CMAKE_CURRENT_LIST_DIR}/${target}.cpp)
  target_link_libraries(${target} PRIVATE commtune_report commtune_exports commtune_workload commtune_replay)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
endforeach()
add_custom_target(commtune_fuzzers DEPENDS fuzz_config fuzz_results fuzz_recommendation fuzz_workload fuzz_nccl_log
  fuzz_torch_trace fuzz_replay)
