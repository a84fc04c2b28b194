# commtune's NCCL tuner plugin, dlopen'ed from the build and called as NCCL calls it; and the
# round trip fixture -> tune -> export -> plugin. Label "unit".
add_executable(tuner_plugin_tests
  ${CMAKE_CURRENT_LIST_DIR}/nccl_caller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tuner_plugin_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/record_mode_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundtrip_test.cpp)
target_link_libraries(tuner_plugin_tests PRIVATE GTest::gtest_main ${CMAKE_DL_LIBS} Threads::Threads)
target_include_directories(tuner_plugin_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(tuner_plugin_tests PRIVATE
  COMMTUNE_TUNER_PLUGIN_PATH="$<TARGET_FILE:nccl-tuner-commtune>"
  COMMTUNE_EXECUTABLE="$<TARGET_FILE:commtune>"
  COMMTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tuner_plugin_tests nccl-tuner-commtune commtune)
gtest_discover_tests(tuner_plugin_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
