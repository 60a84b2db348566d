cmake_minimum_required(VERSION 3.20)
# Runs CMD (a ;-list) when ../shared (SHARED) exists and checks its output
# against EXPECT_OUT (regex) and exit code EXPECT_RC. Without ../shared it
# skips (exit 77) — unless CI is set, where missing reference data fails.
set(NEEDS "${SHARED}/data/microrts")
include(${CMAKE_CURRENT_LIST_DIR}/guard.cmake)
if(MS_SKIP)
  return()
endif()
string(REPLACE "SHARED_DIR" "${SHARED}" CMD "${CMD}")
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT out MATCHES "${EXPECT_OUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUT}'")
endif()
