cmake_minimum_required(VERSION 3.20)
# Our protocol bot inside the official engine: PlayGame.jar runs
# `microsynth planetwars bot Forecast` against a Java example bot; the playback it
# prints must replay natively without a divergence (the same game, turn for turn).
# STARTER: a checkout of xtevenx/planet-wars-starterpackage (tools/PlayGame.jar,
# example_bots/*.jar), kept outside the repository.
# The starter package is a checkout its user makes (like a harness built from
# the official MicroRTS repository): no setup step can fetch it, so its absence
# skips the test even under CI; the shared maps are required as usual.
if(NOT EXISTS "${STARTER}/tools/PlayGame.jar")
  message("skipped: ${STARTER}/tools/PlayGame.jar is absent (a checkout of the starter package, see docs)")
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${MAPS}/map1.txt")
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(game "7;Forecast;RageBot" "12;DualBot;Forecast")
  list(GET game 0 m)
  list(GET game 1 a)
  list(GET game 2 b)
  foreach(side a b)
    set(name ${${side}})
    if(name STREQUAL "Forecast")
      set(cmd_${side} "${CMD} planetwars bot Forecast")
    else()
      set(cmd_${side} "${JAVA} -jar ${STARTER}/example_bots/${name}.jar")
    endif()
  endforeach()
  execute_process(COMMAND ${JAVA} -jar ${STARTER}/tools/PlayGame.jar ${MAPS}/map${m}.txt 1000 200 /dev/null
    "${cmd_a}" "${cmd_b}" OUTPUT_FILE ${OUT}/map${m}_${a}_${b}.playback ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REGEX MATCHALL "Turn [0-9]+" turns "${err}")
  list(LENGTH turns nturns)
  string(REGEX MATCH "(Player [12] Wins!|Draw!)" last "${err}")
  if(NOT last OR err MATCHES "WARNING")
    message(FATAL_ERROR "map${m} ${a} vs ${b}: ${err}")
  endif()
  file(WRITE ${OUT}/map${m}_${a}_${b}.result "turns=${nturns}\n${last}\n")
  execute_process(COMMAND gzip -f ${OUT}/map${m}_${a}_${b}.playback)
endforeach()
execute_process(COMMAND ${CMD} planetwars replay ${OUT} --maps ${MAPS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "games=2 divergences=0\n$")
  message(FATAL_ERROR "exit ${rc}")
endif()
