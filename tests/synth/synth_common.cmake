# Shared by the synth test scripts that run microsynth and read back what it wrote.
# Inputs they all take: CMD (microsynth), DIR (scratch directory), MAPS (the harness's maps folder).

# Empties DIR; for a MicroRTS run (NEED_MAPS given) skips the test, from the
# calling script, when the harness's 8x8 map is absent.
macro(synth_start)
  if("${ARGN}" STREQUAL "NEED_MAPS" AND NOT EXISTS "${MAPS}/8x8/basesWorkers8x8A.xml")
    message("SKIP: no harness maps in ${MAPS}")
    return()
  endif()
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
endmacro()

# synth_run(NAME COMMAND...): runs it, fails on a non-zero exit, sets `out` to its stdout.
function(synth_run name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit ${rc}\nstdout: ${o}\nstderr: ${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
endfunction()

# synth_program(VAR PATH): the program of a written file, its lines that are not '#' header lines.
function(synth_program var path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "${path} was not written")
  endif()
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

# synth_summary(VAR PATTERN TEXT): the part of TEXT that PATTERN matches (the summary line
# without its time, which differs between runs); fails when there is none.
function(synth_summary var pattern text)
  string(REGEX MATCH "${pattern}" s "${text}")
  if(NOT s)
    message(FATAL_ERROR "no summary line in: ${text}")
  endif()
  set(${var} "${s}" PARENT_SCOPE)
endfunction()
