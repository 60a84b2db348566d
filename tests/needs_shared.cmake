cmake_minimum_required(VERSION 3.20)
# Runs CMD (a ;-list, SHARED_DIR in it naming ../shared) when ../shared
# (SHARED) exists and checks it as cli/expect.cmake does, its output in the
# log. Without ../shared it skips, unless CI is set, where missing reference
# data fails.
include(${CMAKE_CURRENT_LIST_DIR}/guard.cmake)
ms_skip_without("${SHARED}/data/microrts")
string(REPLACE "SHARED_DIR" "${SHARED}" CMD "${CMD}")
set(ECHO 1)
include(${CMAKE_CURRENT_LIST_DIR}/cli/expect.cmake)
