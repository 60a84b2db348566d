cmake_minimum_required(VERSION 3.20)
# `cantstop simplify PROGRAM -o OUT`: OUT holds the program printed on stdout under a '#' header
# naming the proof, reads back as a program, and `cantstop equal PROGRAM OUT` on the same matches
# finds every decision the same. CMD: the microsynth executable; PROGRAM, OUT: paths.
set(MATCHES --opponent ga --matches 200 --seed 0)
file(REMOVE ${OUT})
execute_process(COMMAND ${CMD} cantstop simplify ${PROGRAM} ${MATCHES} -o ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "simplify: exit ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "^(yes-no: [^\n]*\ncolumn: [^\n]*\n)nodes_before=58 nodes_after=40 matches=200 decisions_compared=[0-9]+ candidates=[0-9]+ kept=2 seconds=[0-9.]+\n$")
  message(FATAL_ERROR "simplify's stdout: ${out}")
endif()
set(program "${CMAKE_MATCH_1}")
file(READ ${OUT} text)
if(NOT text MATCHES "^# simplified by microsynth cantstop simplify [^\n]*: 40 of 58 nodes, [^\n]*\n# [^\n]*\n# proof: the 200 matches of one evaluation against ga \\(seed 0, era A, [^#]*# [^#]*# [^#]*end the same\n(yes-no: .*)$")
  message(FATAL_ERROR "${OUT} lacks the header naming the proof:\n${text}")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL program)
  message(FATAL_ERROR "${OUT} holds another program than stdout's:\n${CMAKE_MATCH_1}\n${program}")
endif()
execute_process(COMMAND ${CMD} cantstop equal ${PROGRAM} ${OUT} ${MATCHES}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0" OR NOT out MATCHES "^equal=1 matches=200 decisions_compared=[0-9]+\n$")
  message(FATAL_ERROR "equal PROGRAM OUT: exit ${rc}\n${out}\n${err}")
endif()
