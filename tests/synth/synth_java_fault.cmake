cmake_minimum_required(VERSION 3.20)
# microsynth synth --game microrts against a Java opponent that throws and
# one that hangs: the run ends (exit 0) with a program, harness_psi, and the
# failed matches counted in the header and the last line (faults=N, N > 0;
# both Java crashes and time-outs during the search).
# The opponents (tests/synth/java/*.java) are compiled here and put in a copy
# of the harness (links to its jar and maps) as lib/bots/Faulty.jar.
# Inputs: CMD (microsynth), JAVAC, JAR, HARNESS (the installed harness), SRC (tests/synth/java), DIR;
# MPIRUN (optional): instead, the throwing opponent in one process and under 2 MPI ranks.
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
if(DEFINED MPIRUN)
  # MPI (issue 27): the faults happen on rank 1 (--threads 1: rank 0 evaluates nothing) and must reach rank
  # 0's header; the program file equals one process's but for the command line and the elapsed time.
  set(ENV{MICROSYNTH_HARNESS} "${DIR}/harness")
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")
  set(args synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent microsynth.tests.ThrowingAI
    --opponent WorkerRush --algo sa --evals 8 --seed 1 --threads 1 --no-harness --no-progress)
  foreach(run one mpi)
    set(pre)
    if(run STREQUAL "mpi")
      set(pre ${MPIRUN} --oversubscribe -x MICROSYNTH_HARNESS -np 2)
    endif()
    execute_process(COMMAND ${pre} ${CMD} ${args} -o ${DIR}/${run}.ms RESULT_VARIABLE rc OUTPUT_VARIABLE out
      ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${run}: exit ${rc}\n${out}\n${err}")
    endif()
    file(STRINGS ${DIR}/${run}.ms lines)
    list(FILTER lines EXCLUDE REGEX "^# command: |elapsed")
    list(JOIN lines "\n" ${run}_text)
  endforeach()
  if(NOT one_text MATCHES "search: ([1-9][0-9]*) Java crashes")
    message(FATAL_ERROR "no Java crash counted in one process:\n${one_text}")
  endif()
  if(NOT one_text STREQUAL mpi_text)
    message(FATAL_ERROR "mpirun wrote another program file:\n--- one\n${one_text}\n--- mpi\n${mpi_text}")
  endif()
  message(STATUS "${CMAKE_MATCH_1} Java crashes during the search, counted alike on 2 ranks")
  return()
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
