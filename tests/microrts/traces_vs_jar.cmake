cmake_minimum_required(VERSION 3.20)
# Traces written natively must be the bytes the jar writes (Trace.toxml):
# the recorder writes the official trace of a few matches, `microsynth diff
# --write-traces` writes its own from the recordings, and they must match.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${JAR}")
set(dir "${OUT}/traces-vs-jar")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}/java" "${dir}/native")
execute_process(COMMAND ${JAVA} -Djava.awt.headless=true -cp ${JAR} ai.microsynth.harness.Recorder
    --harness ${HARNESS} --traces --out ${dir}/java
    --job "a maps/8x8/basesWorkers8x8A.xml 1 1 WorkerRush LightRush 3000 1"
    --job "b maps/16x16/TwoBasesBarracks16x16.xml 3 2 CoacAI mayari 1500 2"
    --job "c maps/24x24/basesWorkers24x24.xml 2 3 RandomBiasedAI RangedRush 600 3 po"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recorder failed: ${err}")
endif()
execute_process(COMMAND ${EXE} diff --write-traces ${dir}/native ${dir}/java RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "diff failed")
endif()
foreach(m a b c)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${dir}/java/${m}.trace.xml ${dir}/native/${m}.trace.xml
    RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "${m}: native trace differs from the jar's (${dir})")
  endif()
  message("${m}.trace.xml: identical to the jar's")
endforeach()
