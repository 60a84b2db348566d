cmake_minimum_required(VERSION 3.20)
# Runs a microsynth command that needs the official harness (skips without
# it, fails under CI) and checks exit code and output like expect.cmake.
set(NEEDS "${HARNESS}/microrts.jar" ${NEEDS_EXTRA})
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
if(MS_SKIP)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
