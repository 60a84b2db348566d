cmake_minimum_required(VERSION 3.20)
# microsynth synth --game microrts against a Java opponent that throws and
# one that hangs: the run ends (exit 0) with a program, harness_psi, and the
# failed matches counted in the header and the last line (faults=N, N > 0;
# both Java crashes and time-outs during the search).
# The opponents (tests/synth/java/*.java) are compiled here and put in a copy
# of the harness (links to its jar and maps) as lib/bots/Faulty.jar.
# Inputs: CMD (microsynth), JAVAC, JAR, HARNESS (the installed harness), SRC (tests/synth/java), DIR.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/classes" "${DIR}/harness/lib/bots")
foreach(f microrts.jar maps HARNESS)
  file(CREATE_LINK "${HARNESS}/${f}" "${DIR}/harness/${f}" SYMBOLIC)
endforeach()
execute_process(COMMAND "${JAVAC}" --release 8 -nowarn -encoding UTF-8 -cp "${HARNESS}/microrts.jar"
  -d "${DIR}/classes" "${SRC}/ThrowingAI.java" "${SRC}/HangingAI.java" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "javac: ${err}")
endif()
execute_process(COMMAND "${JAR}" cf "${DIR}/harness/lib/bots/Faulty.jar" -C "${DIR}/classes" .
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "jar cf failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env "MICROSYNTH_HARNESS=${DIR}/harness"
  ${CMD} synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent microsynth.tests.ThrowingAI
  --opponent microsynth.tests.HangingAI --opponent WorkerRush --algo sa --evals 8 --seed 1 --java-hang-ms 300
  --no-progress -o "${DIR}/out.ms"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "synth: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out MATCHES "\npsi=[0-9.]+ harness_psi=[0-9.]+ evals=8 seconds=[0-9.]+ faults=([1-9][0-9]*)\n$")
  message(FATAL_ERROR "no summary line with faults > 0 and a harness_psi:\n${out}\nstderr: ${err}")
endif()
set(n "${CMAKE_MATCH_1}")
file(READ "${DIR}/out.ms" prog)
if(NOT prog MATCHES "\n# faults: ${n} \\(opponents that failed[^\n]*search: ([0-9]+) Java crashes, ([0-9]+) Java time-outs")
  message(FATAL_ERROR "the header does not give the ${n} faults:\n${prog}")
endif()
if(CMAKE_MATCH_1 EQUAL 0 OR CMAKE_MATCH_2 EQUAL 0)
  message(FATAL_ERROR "no Java crash or no Java time-out counted during the search:\n${prog}")
endif()
message(STATUS "faults=${n}: ${CMAKE_MATCH_1} Java crashes and ${CMAKE_MATCH_2} time-outs during the search")
