# Fails if a doctest TEST_CASE name in DIR/*.cpp contains ';': CTest splits such a name (a CMake
# list) and each half then matches no test case and "passes" without running anything.
file(GLOB files ${DIR}/*.cpp)
foreach(f ${files})
  file(READ ${f} text)
  string(REGEX MATCH "TEST_CASE\\([ \n]*\"[^\"]*;" bad "${text}")
  if(bad)
    message(FATAL_ERROR "${f}: a TEST_CASE name contains ';', which CTest would split: ${bad}")
  endif()
endforeach()
