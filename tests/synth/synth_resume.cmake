cmake_minimum_required(VERSION 3.20)
# microsynth synth, killed with SIGKILL in the middle of its checkpoint and
# resumed (on another thread count), ends with the program, scores and
# counts of an uninterrupted run; its CSV log plots.
# Inputs: CMD (microsynth), KILL (kill_after), DIR (scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/synth_common.cmake)
synth_start()
set(common synth --game cantstop --algo sketch-sa --score O --oracle ga --evals 1500 --seed 3
  --matches 100 --final-matches 1000 --no-progress)

# The summary line without its time.
set(summary "psi=[0-9.]+ search_psi=[0-9.]+ evals=[0-9]+ evals_c=[0-9]+")

synth_run(whole ${CMD} ${common} --threads 1 -o "${DIR}/whole.txt" --checkpoint "${DIR}/whole.ckpt"
  --csv "${DIR}/whole.csv")
synth_summary(want "${summary}" "${out}")
synth_program(want_prog "${DIR}/whole.txt")
file(SIZE "${DIR}/whole.ckpt" size)
math(EXPR at "${size} * 2 / 3")

synth_run(killed ${KILL} "${DIR}/cut.ckpt" ${at} ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt"
  --checkpoint "${DIR}/cut.ckpt")
if(EXISTS "${DIR}/cut.txt")
  message(FATAL_ERROR "the killed run wrote its output: it was not killed mid-run")
endif()
file(SIZE "${DIR}/cut.ckpt" cut_size)
if(cut_size GREATER_EQUAL size)
  message(FATAL_ERROR "the killed run's checkpoint (${cut_size} bytes) is as long as a whole run's (${size})")
endif()

# Without --resume an existing checkpoint is refused (bad usage).
execute_process(COMMAND ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt" --checkpoint "${DIR}/cut.ckpt"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "exists")
  message(FATAL_ERROR "a second run on the same checkpoint without --resume: exit ${rc}: ${err}")
endif()

synth_run(resumed ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt" --checkpoint "${DIR}/cut.ckpt" --resume)
synth_summary(got "${summary}" "${out}")
synth_program(got_prog "${DIR}/cut.txt")
if(NOT got STREQUAL want)
  message(FATAL_ERROR "resumed run: '${got}', uninterrupted run: '${want}'")
endif()
if(NOT got_prog STREQUAL want_prog)
  message(FATAL_ERROR "resumed run's program:\n${got_prog}uninterrupted run's:\n${want_prog}")
endif()
message(STATUS "killed at ${at} of ${size} bytes; resumed to: ${got}")

# The CSV log plots.
synth_run(plot ${CMD} synth plot --csv "${DIR}/whole.csv" -o "${DIR}/whole.svg")
file(READ "${DIR}/whole.svg" svg)
if(NOT svg MATCHES "^<\\?xml" OR NOT svg MATCHES "<path fill=\"none\" stroke=\"#1f77b4\"" OR NOT svg MATCHES "</svg>\n$")
  message(FATAL_ERROR "the plot lacks the expected SVG parts:\n${svg}")
endif()
