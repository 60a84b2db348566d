cmake_minimum_required(VERSION 3.20)
# `synth plot --group` (issue 45's figures): per group of runs the mean best Psi over a +-1 std band, each
# run holding its best until --until, Psi rounded down to --step (the tie-breaks removed). Two runs end at
# 1.0 and 0.5 (mean 0.75, band 0.5-1.0), one alone at 0.25; a group without '=' is bad usage.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(h "seconds,best_psi,best_c,evals_psi,evals_c,phase\n")
file(WRITE ${DIR}/r1.csv "${h}1,0.1,,10,0,search\n4,1.105,,40,0,search\n")
file(WRITE ${DIR}/r2.csv "${h}2,0.55,,20,0,search\n")
file(WRITE ${DIR}/r3.csv "${h}3,0.3,,30,0,search\n")
execute_process(COMMAND ${CMD} synth plot --group "Sketch-SA(O)=${DIR}/r1.csv,${DIR}/r2.csv" --group "Baseline=${DIR}/r3.csv"
    --until 10 --step 0.25 --title "t" -o ${DIR}/g.svg RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "logs=3 groups=2 xmax=10 seconds")
  message(FATAL_ERROR "plot --group: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${DIR}/g.svg svg)
foreach(want "fill=\"#1f77b4\" fill-opacity=\"0.20\"" "fill=\"#d62728\" fill-opacity=\"0.20\""
    "Sketch-SA\\(O\\) \\(2 runs; at the end mean 0.750, band 0.500-1.000\\)"
    "Baseline \\(1 runs; at the end mean 0.250, band 0.250-0.250\\)" "</svg>\n$")
  if(NOT svg MATCHES "${want}")
    message(FATAL_ERROR "the grouped plot lacks '${want}':\n${svg}")
  endif()
endforeach()
execute_process(COMMAND ${CMD} synth plot --group "${DIR}/r1.csv" -o ${DIR}/bad.svg
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--group wants LABEL=")
  message(FATAL_ERROR "a group without a label: exit ${rc}\n${err}")
endif()
message(STATUS "grouped plot: mean lines, bands and legends as computed")
