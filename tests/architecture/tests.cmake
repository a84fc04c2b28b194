# The include rule: docs/architecture.md's "Layers" table checked against every #include of src/
# and kernels/, and a run on synthetic trees that proves the checker can fail. Label "unit".
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(COMMTUNE_PYTHON "${Python3_EXECUTABLE}")
else()
  set(COMMTUNE_PYTHON python3)
endif()

add_test(NAME architecture_include_rule
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/include_rule.py
    --src ${PROJECT_SOURCE_DIR}/src
    --kernels ${PROJECT_SOURCE_DIR}/kernels
    --doc ${PROJECT_SOURCE_DIR}/docs/architecture.md)
add_test(NAME architecture_include_rule_can_fail
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/include_rule_test.py)
set_tests_properties(architecture_include_rule architecture_include_rule_can_fail
  PROPERTIES LABELS unit TIMEOUT 60)

# The committed .clang-format holds for every source (skipped where clang-format is missing).
add_test(NAME architecture_format COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/format_check.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(architecture_format PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77)

# The size rule: no source over 300 lines, no function over 60 (and a run that proves it can fail).
add_test(NAME architecture_size_rule
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/size_rule.py --root ${PROJECT_SOURCE_DIR})
add_test(NAME architecture_size_rule_can_fail
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/size_rule.py --self-test)
set_tests_properties(architecture_size_rule architecture_size_rule_can_fail PROPERTIES LABELS unit TIMEOUT 60)

# The "A new backend" recipe: a test backend (BackendKind::Loopback) added to a scratch copy of the
# tree refuses to build in exactly the files the recipe names, and builds once it has their rows and
# cases (-fsyntax-only with this build's compile_commands.json; about half a minute on two cores).
add_test(NAME architecture_backend_recipe
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backend_recipe.py
    --root ${PROJECT_SOURCE_DIR} --build ${PROJECT_BINARY_DIR})
set_tests_properties(architecture_backend_recipe PROPERTIES LABELS unit TIMEOUT 240 SKIP_RETURN_CODE 77)
add_test(NAME architecture_backend_recipe_can_fail
  COMMAND ${COMMTUNE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backend_recipe_test.py)
set_tests_properties(architecture_backend_recipe_can_fail PROPERTIES LABELS unit TIMEOUT 60)
