cmake_minimum_required(VERSION 3.20)
# Native matches end as official ones: the jar plays every ordered pairing
# of BOTS on each of MAPS (the recorder, with official traces);
# `microsynth play` then plays the same matches natively. Per match the
# summary line must equal the official winner and cycle count, and the
# native trace must be byte-identical to the official one (every decision
# point and the final state). Skips without the harness, fails under CI.
set(NEEDS "${HARNESS}/microrts.jar" "${JAR}")
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
if(MS_SKIP)
  return()
endif()
string(REPLACE "," ";" MAPS "${MAPS}")
string(REPLACE "," ";" BOTS "${BOTS}")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(names)
foreach(map IN LISTS MAPS)
  get_filename_component(m "${map}" NAME_WE)
  foreach(p0 IN LISTS BOTS)
    foreach(p1 IN LISTS BOTS)
      set(name "${m}-${p0}-${p1}")
      list(APPEND names "${name}|${map}|${p0}|${p1}")
    endforeach()
  endforeach()
endforeach()
set(bad 0)
set(n 0)
foreach(entry IN LISTS names)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 map)
  list(GET parts 2 p0)
  list(GET parts 3 p1)
  # One JVM per match: Unit.next_ID is JVM-wide, so a second match in the
  # same JVM would number its new units on from the first's.
  execute_process(COMMAND ${JAVA} -Djava.awt.headless=true -cp ${JAR} ai.microsynth.harness.Recorder
      --harness ${HARNESS} --traces --out ${OUT}
      --job "${name} ${map} ${UTT} ${CONFLICT} ${p0} ${p1} ${CYCLES} 0"
    RESULT_VARIABLE rc OUTPUT_VARIABLE rec ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "recorder failed (${rc}):\n${rec}${err}")
  endif()
  if(NOT rec MATCHES "recorded ${name} (winner=-?[0-9]+ cycles=[0-9]+)")
    message(FATAL_ERROR "no official result for ${name}:\n${rec}")
  endif()
  set(want "${CMAKE_MATCH_1}")
  execute_process(COMMAND ${EXE} play --map ${map} --p0 ${p0} --p1 ${p1} --utt ${UTT} --conflict ${CONFLICT}
      --max-cycles ${CYCLES} --trace ${OUT}/${name}.native.xml
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "winner=-?[0-9]+ cycles=[0-9]+\n$" got "${out}")
  string(STRIP "${got}" got)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${name}.trace.xml ${OUT}/${name}.native.xml
    RESULT_VARIABLE same)
  math(EXPR n "${n} + 1")
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want OR NOT same EQUAL 0)
    math(EXPR bad "${bad} + 1")
    message("MISMATCH ${name}: official ${want}, native '${got}' (exit ${rc}), traces identical: ${same}\n${err}")
  else()
    message("ok ${name}: ${got}")
  endif()
endforeach()
message("matches=${n} mismatches=${bad}")
if(NOT bad EQUAL 0)
  message(FATAL_ERROR "native matches end differently from the official ones")
endif()
