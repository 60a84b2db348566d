cmake_minimum_required(VERSION 3.20)
# synth --opponent-seeds K: mayari and CoacAI (random in their jars) play K
# matches per seat each, with seeds 1..K: the header's W/D/L counts 4K
# matches; the run is reproducible for its seed with 1 or 2 threads (on
# basesWorkers16x16A, where the candidates' results vary); K = 1 counts 4
# matches as before. Native opponents, no harness.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(common synth --game microrts --map ${MAP} --opponent mayari --opponent CoacAI --algo sa --evals 60
  --seed 7 --no-harness --no-progress --edition 2023)
foreach(run "1;3" "2;3" "1;1")
  list(GET run 0 threads)
  list(GET run 1 k)
  execute_process(COMMAND ${CMD} ${common} --threads ${threads} --opponent-seeds ${k} -o ${DIR}/t${threads}k${k}.ms
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "synth --threads ${threads} --opponent-seeds ${k}: exit ${rc}\n${out}\n${err}")
  endif()
  file(READ ${DIR}/t${threads}k${k}.ms text)
  if(NOT text MATCHES "\n# psi: [0-9.]+ \\(([0-9]+)W ([0-9]+)D ([0-9]+)L")
    message(FATAL_ERROR "no psi line in the header:\n${text}")
  endif()
  math(EXPR n "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2} + ${CMAKE_MATCH_3}")
  math(EXPR want "4 * ${k}")
  if(NOT n EQUAL want)
    message(FATAL_ERROR "--opponent-seeds ${k}: ${n} matches in the header, expected ${want}")
  endif()
  # everything but the command line, the thread count and the time
  string(REGEX REPLACE "# (command|evaluations):[^\n]*\n" "" text "${text}")
  string(REGEX REPLACE "threads: [0-9]+" "" text "${text}")
  set(body_${threads}_${k} "${text}")
endforeach()
if(NOT body_1_3 STREQUAL body_2_3)
  message(FATAL_ERROR "--opponent-seeds 3: 1 and 2 threads differ:\n${body_1_3}\n---\n${body_2_3}")
endif()
if(NOT body_1_3 MATCHES "opponent_seeds 3" OR body_1_1 MATCHES "opponent_seeds")
  message(FATAL_ERROR "the fingerprint should name opponent_seeds 3 only when K >= 2")
endif()
