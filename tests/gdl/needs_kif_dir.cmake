cmake_minimum_required(VERSION 3.20)
# Runs CMD (a ;-list, KIF_DIR in it naming $MICROSYNTH_GGP_KIF_DIR) and checks it as
# cli/expect.cmake does. The folder holds rule files from ggp-base's history, which this
# project never ships (docs/gdl.md, issue 46): without the variable the test is skipped,
# CI too (no CI has them); a folder that lacks a file it names fails.
if("$ENV{MICROSYNTH_GGP_KIF_DIR}" STREQUAL "")
  message("skipped: MICROSYNTH_GGP_KIF_DIR is unset (a folder with ggp-base's laikLee_hex.kif and merrills.kif, taken from its history; docs/gdl.md)")
  return()
endif()
foreach(f IN LISTS NEEDS)
  if(NOT EXISTS "$ENV{MICROSYNTH_GGP_KIF_DIR}/${f}")
    message(FATAL_ERROR "MICROSYNTH_GGP_KIF_DIR=$ENV{MICROSYNTH_GGP_KIF_DIR} has no ${f}")
  endif()
endforeach()
string(REPLACE "KIF_DIR" "$ENV{MICROSYNTH_GGP_KIF_DIR}" CMD "${CMD}")
set(ECHO 1)
include(${CMAKE_CURRENT_LIST_DIR}/../cli/expect.cmake)
