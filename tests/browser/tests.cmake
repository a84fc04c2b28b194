# The HTML report in headless Chromium (label "browser"; skipped with 77 where no chromium is
# installed). Screenshots land in the build folder: build/browser-screenshots/.
add_test(NAME browser_report
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/browser_test.sh $<TARGET_FILE:commtune> ${PROJECT_SOURCE_DIR}
    ${PROJECT_BINARY_DIR}/browser-screenshots)
set_tests_properties(browser_report PROPERTIES LABELS browser TIMEOUT 120 SKIP_RETURN_CODE 77
  ENVIRONMENT "COMMTUNE_MPIRUN=${COMMTUNE_MPIRUN}")
