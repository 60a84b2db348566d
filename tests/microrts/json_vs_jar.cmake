cmake_minimum_required(VERSION 3.20)
# The native JSON of every official map (its initial state and both
# players' partially observable views) and unit type table must equal,
# byte for byte, what the official jar writes. Skips (77) without the
# harness, fails instead under CI.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar")
file(GLOB_RECURSE maps "${HARNESS}/maps/*.xml")
list(SORT maps)
list(LENGTH maps nmaps)
foreach(v 1 2 3)
  execute_process(COMMAND ${JAVA} -cp ${HARNESS}/microrts.jar ${SRC} ${v} 1 --views ${maps}
    OUTPUT_FILE ${OUT}/json_java_${v}.txt ERROR_VARIABLE jerr RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "JsonDump failed: ${jerr}")
  endif()
  execute_process(COMMAND ${EXE} json --tsv --views --utt ${v} ${maps}
    OUTPUT_FILE ${OUT}/json_native_${v}.txt ERROR_VARIABLE nerr)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/json_java_${v}.txt ${OUT}/json_native_${v}.txt
    RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "version ${v}: native JSON differs from the jar's: ${OUT}/json_java_${v}.txt vs ${OUT}/json_native_${v}.txt")
  endif()
  file(STRINGS ${OUT}/json_java_${v}.txt lines)
  list(LENGTH lines n)
  math(EXPR n "(${n} - 1) / 3")
  message("version ${v}: ${n} of ${nmaps} maps identical to the jar; rejected by both:\n${jerr}---\n${nerr}")
  if(n LESS 100)
    message(FATAL_ERROR "only ${n} maps compared")
  endif()
endforeach()
