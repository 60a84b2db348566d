cmake_minimum_required(VERSION 3.20)
# microsynth synth --game microrts --algo hss: a run killed with SIGKILL in the middle of its
# checkpoint and resumed on another thread count ends with the program, summary and program library
# of an uninterrupted run; a second call starts from that library (transfer). Native opponents only.
# Inputs: CMD (microsynth), KILL (kill_after), DIR (scratch directory), MAPS (the harness's maps folder).
include(${CMAKE_CURRENT_LIST_DIR}/synth_common.cmake)
synth_start(NEED_MAPS)
set(common synth --game microrts --map ${MAPS}/8x8/basesWorkers8x8A.xml --opponent WorkerRush --opponent LightRush
  --algo hss --evals 400 --seed 2 --no-progress --no-harness)

# The summary line without its time.
set(summary "psi=[0-9.]+ harness_psi=- evals=[0-9]+")

synth_run(whole ${CMD} ${common} --threads 1 -o "${DIR}/whole.txt" --checkpoint "${DIR}/whole.ckpt"
  --hss-library "${DIR}/whole.lib")
synth_summary(want "${summary}" "${out}")
synth_program(want_prog "${DIR}/whole.txt")
file(READ "${DIR}/whole.lib" want_lib)
if(NOT want_lib MATCHES "^microsynth-hss-library 1\ngrammar [^\n]+\nfeatures 11\n[0-9.]+( [0-9]+)+ ")
  message(FATAL_ERROR "the library lacks its header or a program line with 11 features:\n${want_lib}")
endif()
file(SIZE "${DIR}/whole.ckpt" size)
math(EXPR at "${size} * 2 / 3")

synth_run(killed ${KILL} "${DIR}/cut.ckpt" ${at} ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt"
  --checkpoint "${DIR}/cut.ckpt" --hss-library "${DIR}/cut.lib")
if(EXISTS "${DIR}/cut.txt" OR EXISTS "${DIR}/cut.lib")
  message(FATAL_ERROR "the killed run wrote its output or library: it was not killed mid-run")
endif()
synth_run(resumed ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt" --checkpoint "${DIR}/cut.ckpt"
  --hss-library "${DIR}/cut.lib" --resume)
synth_summary(got "${summary}" "${out}")
synth_program(got_prog "${DIR}/cut.txt")
file(READ "${DIR}/cut.lib" got_lib)
if(NOT got STREQUAL want OR NOT got_prog STREQUAL want_prog)
  message(FATAL_ERROR "resumed run: '${got}'\n${got_prog}uninterrupted run: '${want}'\n${want_prog}")
endif()
if(NOT got_lib STREQUAL want_lib)
  message(FATAL_ERROR "the resumed run's library differs from the uninterrupted run's")
endif()

# Transfer: a second call reads the library (and rewrites it, longer or as long).
synth_run(again ${CMD} ${common} --seed 3 --threads 1 -o "${DIR}/again.txt" --hss-library "${DIR}/whole.lib")
file(SIZE "${DIR}/whole.lib" lib2)
string(LENGTH "${want_lib}" lib1)
if(lib2 LESS lib1)
  message(FATAL_ERROR "the second call's library (${lib2} bytes) lost programs of the first (${lib1})")
endif()
message(STATUS "killed at ${at} of ${size} bytes; resumed to: ${got}")
