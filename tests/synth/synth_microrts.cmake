cmake_minimum_required(VERSION 3.20)
# Synthesizes a program against WorkerRush and LightRush on basesWorkers8x8A (300 evaluations, 2 threads),
# then checks the summary line: the program's Psi in our engine equals its Psi replayed in the official
# harness (deterministic opponents), the output file holds both in its header and parses back.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${CMD} synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush
    --opponent LightRush --algo sa --evals 300 --seed 3 --threads 2 -o ${DIR}/p.ms --no-progress
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "synth exit ${rc}\n${out}\n${err}")
endif()
if(NOT out MATCHES "psi=([0-9.]+) harness_psi=([0-9.]+) evals=300 seconds=[0-9.]+ faults=0\n$")
  message(FATAL_ERROR "no summary line with psi and harness_psi: ${out}")
endif()
set(psi ${CMAKE_MATCH_1})
set(hpsi ${CMAKE_MATCH_2})
if(NOT psi STREQUAL hpsi)
  message(FATAL_ERROR "psi ${psi} in our engine but ${hpsi} in the official harness: a fidelity bug")
endif()
file(READ ${DIR}/p.ms text)
if(NOT text MATCHES "# harness_psi: ${hpsi}")
  message(FATAL_ERROR "the program's header lacks harness_psi ${hpsi}:\n${text}")
endif()
execute_process(COMMAND ${CMD} dsl check ${DIR}/p.ms RESULT_VARIABLE rc2 OUTPUT_VARIABLE o2 ERROR_VARIABLE e2)
if(NOT rc2 EQUAL 0)
  message(FATAL_ERROR "the written program does not parse: ${e2}")
endif()
message(STATUS "psi=${psi} harness_psi=${hpsi}")
