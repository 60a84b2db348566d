cmake_minimum_required(VERSION 3.20)
# microsynth selfplay --game microrts --br hss: IBR and FP loops of 3 iterations write each
# iteration's program (a valid program), report its Psi against the fixed opponents, answer the
# loop's population (IBR: the previous program; FP: all earlier ones) and share one program library;
# a run budgeted by evaluations gives the same programs on 2 threads as on 1.
# Inputs: CMD (microsynth), DIR (scratch directory), MAPS (the harness's maps folder).
include(${CMAKE_CURRENT_LIST_DIR}/synth_common.cmake)
synth_start(NEED_MAPS)

function(selfplay loop out threads)
  execute_process(COMMAND ${CMD} selfplay --game microrts --map ${MAPS}/8x8/basesWorkers8x8A.xml
    --opponent WorkerRush --loop ${loop} --br hss --iterations 3 --evals 150 --seed 1 --threads ${threads}
    --no-progress -o ${out} --hss-library ${out}.lib --csv ${out}.csv
    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "selfplay ${loop}: exit ${rc}\n${o}\n${e}")
  endif()
  set(out_text "${o}" PARENT_SCOPE)
endfunction()

set(it "search_psi=[0-9.]+ vs_fixed=[0-9.]+ evals=150 seconds=[0-9.]+")
# each iteration's line follows its program's simplification (docs/readable-programs.md)
set(simp "simplified: iteration=[0-2] [^\n]*\n")
selfplay(ibr "${DIR}/ibr.txt" 1)
if(NOT out_text MATCHES "${simp}iteration=0 ${it} population=\\[fixed0:1\\]\n${simp}iteration=1 ${it} population=\\[iter0:1\\]\n${simp}iteration=2 ${it} population=\\[iter1:1\\]\nbest_iteration=[0-2] best_vs_fixed=[0-9.]+ seconds=")
  message(FATAL_ERROR "ibr: unexpected output:\n${out_text}")
endif()
selfplay(fp "${DIR}/fp.txt" 1)
if(NOT out_text MATCHES "iteration=2 ${it} population=\\[iter0:1 iter1:1\\]\n")
  message(FATAL_ERROR "fp: unexpected output:\n${out_text}")
endif()
foreach(f ibr.txt.iter-0 ibr.txt.iter-1 ibr.txt.iter-2 fp.txt.iter-2)
  execute_process(COMMAND ${CMD} dsl check ${DIR}/${f} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${f} is not a valid program: ${e}")
  endif()
endforeach()
file(READ "${DIR}/fp.txt.lib" lib)
if(NOT lib MATCHES "^microsynth-hss-library 1\ngrammar [^\n]+\nfeatures 11\n")
  message(FATAL_ERROR "the shared library lacks its header")
endif()

# the same IBR run on 2 threads: the same programs
file(READ "${DIR}/ibr.txt.iter-2" one)
selfplay(ibr "${DIR}/ibr2.txt" 2)
file(READ "${DIR}/ibr2.txt.iter-2" two)
string(REGEX REPLACE "#[^\n]*\n" "" one "${one}")
string(REGEX REPLACE "#[^\n]*\n" "" two "${two}")
if(NOT one STREQUAL two)
  message(FATAL_ERROR "iteration 2 on 1 thread:\n${one}\non 2 threads:\n${two}")
endif()
