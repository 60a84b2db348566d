cmake_minimum_required(VERSION 3.20)
# Runs a microsynth command that needs the official harness (skips without
# it, fails under CI) and checks exit code and output like expect.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" ${NEEDS_EXTRA})
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)
