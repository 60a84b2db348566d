cmake_minimum_required(VERSION 3.20)
# --sketch-share: a value outside (0, 1] is a usage error naming the option; with --time, Sketch-SA's
# C phase ends at its share and the rest of the budget searches on Psi. Without the share its 5 x 10
# passes on C (the reference's bound) can take a whole large-map budget, leaving Psi unevaluated.
include(${CMAKE_CURRENT_LIST_DIR}/synth_common.cmake)
synth_start()
set(common synth --game microrts --map ${MAP} --opponent WorkerRush --algo sketch-sa --oracle LightRush
    --seed 1 --threads 1 --no-harness --no-progress -o ${DIR}/p.ms --csv ${DIR}/p.csv)
execute_process(COMMAND ${CMD} ${common} --time 2 --sketch-share 1.5
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--sketch-share: '1.5'")
  message(FATAL_ERROR "--sketch-share 1.5 accepted or unnamed (exit ${rc}): ${err}")
endif()
synth_run(synth ${CMD} ${common} --time 3 --sketch-share 0.3)
if(NOT out MATCHES "psi=[0-9.]+ harness_psi=- evals=([0-9]+) ")
  message(FATAL_ERROR "no summary line: ${out}")
endif()
set(n ${CMAKE_MATCH_1})
# the C phase alone scores at most one program per run (5) on Psi; --sketch-share 1 gives 4 here
if(n LESS 10)
  message(FATAL_ERROR "only ${n} Psi evaluations: the C phase kept the budget\n${out}")
endif()
file(READ ${DIR}/p.csv csv)
if(NOT csv MATCHES ",sketch\n" OR NOT csv MATCHES ",br\n$")
  message(FATAL_ERROR "the log lacks a sketch row or a Psi (br) row:\n${csv}")
endif()
message(STATUS "Psi evaluations: ${n}")
