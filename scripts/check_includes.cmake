# Fails, naming FILE:LINE, if a source file under DIRS (folders, comma separated) has an #include
# whose path contains "../": a file reaching another room's header by climbing out of its own
# folder (#include "../ui/panel.hpp" from src/render/) would compile past the rooms' include paths
# (docs/architecture.md#boundaries-the-build-enforces). EXCLUDE (optional, comma separated):
# folders not to look in (the test's own fixture of a climbing include).
#   cmake -DDIRS=src,tests [-DEXCLUDE=tests/boundaries/climbing] -P check_includes.cmake
if(NOT DIRS)
  message(FATAL_ERROR "check_includes.cmake: set -DDIRS=<folder>[,<folder>...]")
endif()
string(REPLACE "," ";" dirs "${DIRS}")
string(REPLACE "," ";" excluded "${EXCLUDE}")

set(files)
foreach(dir ${dirs})
  if(NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "check_includes.cmake: ${dir} is not a folder")
  endif()
  file(GLOB_RECURSE found "${dir}/*.cpp" "${dir}/*.hpp" "${dir}/*.h" "${dir}/*.c" "${dir}/*.cc"
       "${dir}/*.inl" "${dir}/*.in")
  list(APPEND files ${found})
endforeach()
foreach(ex ${excluded})
  get_filename_component(ex "${ex}" ABSOLUTE)
  string(REGEX REPLACE "([][+.*?()^$|\\])" "\\\\\\1" ex "${ex}")  # literally
  list(FILTER files EXCLUDE REGEX "^${ex}/")
endforeach()
list(SORT files)

set(include_climbing "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*\\.\\./")
set(problems 0)
foreach(f ${files})
  file(STRINGS "${f}" bad REGEX "${include_climbing}")
  if(NOT bad)
    continue()
  endif()
  # the line numbers: each offending line's place in the text, after the lines before it
  file(READ "${f}" text)
  set(from 0)
  foreach(line ${bad})
    string(SUBSTRING "${text}" ${from} -1 rest)
    string(FIND "${rest}" "${line}" at)
    math(EXPR at "${from} + ${at}")
    string(SUBSTRING "${text}" 0 ${at} before)
    string(REGEX MATCHALL "\n" breaks "${before}")
    list(LENGTH breaks number)
    math(EXPR number "${number} + 1")
    string(STRIP "${line}" shown)
    message("${f}:${number}: an include climbs out of its folder with ../: ${shown}")
    math(EXPR from "${at} + 1")
    math(EXPR problems "${problems} + 1")
  endforeach()
endforeach()
if(problems GREATER 0)
  message(FATAL_ERROR "${problems} include(s) with ../: include \"room/file.hpp\" instead")
endif()
list(LENGTH files checked)
message(STATUS "no include climbs out with ../ (${checked} files under ${DIRS})")
