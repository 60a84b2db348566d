cmake_minimum_required(VERSION 3.20)
# Runs one JVM for a JNI-bot test and checks its exit status (0) and last
# stdout line (the regex LAST, whole line). Skips ("skipped: ...") when a
# path of NEEDS is absent, fails instead under CI (guard.cmake).
#   cmake "-DNEEDS=a;b" "-DCMD=java;-cp;...;Main;args" -DLAST=RE -DWORKDIR=dir [-DTIMEOUT=s] -P jni_java.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without(${NEEDS})
if(NOT TIMEOUT)
  set(TIMEOUT 600)
endif()
file(MAKE_DIRECTORY "${WORKDIR}")
execute_process(COMMAND ${CMD} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE err TIMEOUT ${TIMEOUT})
string(REPLACE ";" " " shown "${CMD}")
message("--- command: ${shown}\n--- exit: ${rc}\n--- stdout:\n${out}--- stderr:\n${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}")
endif()
string(STRIP "${out}" stripped)
string(REGEX REPLACE "^.*\n" "" last "${stripped}")
if(LAST AND NOT last MATCHES "^${LAST}$")
  message(FATAL_ERROR "last line '${last}' does not match '${LAST}'")
endif()
