cmake_minimum_required(VERSION 3.20)
# microsynth synth, killed with SIGKILL in the middle of its checkpoint and
# resumed (on another thread count), ends with the program, scores and
# counts of an uninterrupted run; its CSV log plots.
# Inputs: CMD (microsynth), KILL (kill_after), DIR (scratch directory).
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(common synth --game cantstop --algo sketch-sa --score O --oracle ga --evals 1500 --seed 3
  --matches 100 --final-matches 1000 --no-progress)

function(run name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The last stdout line without its time: psi=X search_psi=Y evals=N evals_c=M
function(summary var text)
  string(REGEX MATCH "psi=[0-9.]+ search_psi=[0-9.]+ evals=[0-9]+ evals_c=[0-9]+" s "${text}")
  if(NOT s)
    message(FATAL_ERROR "no summary line in: ${text}")
  endif()
  set(${var} "${s}" PARENT_SCOPE)
endfunction()

# The program of an output file: its lines that are not '#' header lines.
function(program var path)
  file(STRINGS "${path}" lines)
  set(p "")
  foreach(l IN LISTS lines)
    if(NOT l MATCHES "^#")
      string(APPEND p "${l}\n")
    endif()
  endforeach()
  if(p STREQUAL "")
    message(FATAL_ERROR "${path} holds no program")
  endif()
  set(${var} "${p}" PARENT_SCOPE)
endfunction()

run(whole ${CMD} ${common} --threads 1 -o "${DIR}/whole.txt" --checkpoint "${DIR}/whole.ckpt"
  --csv "${DIR}/whole.csv")
summary(want "${out}")
program(want_prog "${DIR}/whole.txt")
file(SIZE "${DIR}/whole.ckpt" size)
math(EXPR at "${size} * 2 / 3")

run(killed ${KILL} "${DIR}/cut.ckpt" ${at} ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt"
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

run(resumed ${CMD} ${common} --threads 2 -o "${DIR}/cut.txt" --checkpoint "${DIR}/cut.ckpt" --resume)
summary(got "${out}")
program(got_prog "${DIR}/cut.txt")
if(NOT got STREQUAL want)
  message(FATAL_ERROR "resumed run: '${got}', uninterrupted run: '${want}'")
endif()
if(NOT got_prog STREQUAL want_prog)
  message(FATAL_ERROR "resumed run's program:\n${got_prog}uninterrupted run's:\n${want_prog}")
endif()
message(STATUS "killed at ${at} of ${size} bytes; resumed to: ${got}")

# The CSV log plots.
run(plot ${CMD} synth plot --csv "${DIR}/whole.csv" -o "${DIR}/whole.svg")
file(READ "${DIR}/whole.svg" svg)
if(NOT svg MATCHES "^<\\?xml" OR NOT svg MATCHES "<path fill=\"none\" stroke=\"#1f77b4\"" OR NOT svg MATCHES "</svg>\n$")
  message(FATAL_ERROR "the plot lacks the expected SVG parts:\n${svg}")
endif()
