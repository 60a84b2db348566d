# The functions every tests/*/CMakeLists.txt adds its tests with, kept in one
# place so a test's shape (its command, labels, skip rule) is written once.

# ms_add_test(NAME SOURCE [ARGS ...]): a cmocka test on the static library
# and its private headers. Label "unit": pure C, run under ASan+UBSan in CI.
function(ms_add_test name src)
  add_executable(${name} ${src})
  target_include_directories(${name} PRIVATE ${MS_TESTS_DIR})
  target_link_libraries(${name} PRIVATE ms_internal PkgConfig::CMOCKA m)
  target_compile_options(${name} PRIVATE ${MS_WARNINGS})
  add_test(NAME ${name} COMMAND ${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "unit"
    ENVIRONMENT "MS_SHARED_DIR=$<$<BOOL:${MS_SHARED_PRESENT}>:${MS_SHARED_DIR}>")
endfunction()

# Multi-value arguments read with PARSE_ARGV come back with their inner
# semicolons escaped; undo that so "a;b" and a b give the same list.
macro(_ms_flat var)
  string(REPLACE "\\;" ";" ${var} "${${var}}")
endmacro()

# ms_add_cli_test(NAME RC <code> [OUT <regex>] [ERR <text>] [CMD <exe>]
#                 [INPUT <file>] [LABELS <label>...] ARGS <arg>...)
# Runs CMD (microsynth by default) with ARGS, stdin from INPUT, through
# cli/expect.cmake: the exit code is RC, stdout matches OUT, stderr contains
# ERR. Label "unit" unless LABELS says otherwise. OUT and ERR keep their
# semicolons.
function(ms_add_cli_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "RC;OUT;ERR;CMD;INPUT" "ARGS;LABELS")
  if(NOT DEFINED T_CMD)
    set(T_CMD $<TARGET_FILE:microsynth_cli>)
  endif()
  if(NOT DEFINED T_LABELS)
    set(T_LABELS unit)
  endif()
  _ms_flat(T_ARGS)
  _ms_flat(T_LABELS)
  # semicolons escaped, so each stays one argument when the list expands
  set(expect)
  foreach(what OUT ERR)
    if(DEFINED T_${what})
      string(REPLACE ";" "\\;" v "${T_${what}}")
      list(APPEND expect "-DEXPECT_${what}=${v}")
    endif()
  endforeach()
  if(DEFINED T_INPUT)
    list(APPEND expect -DINPUT=${T_INPUT})
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DCMD=${T_CMD} "-DARGS=${T_ARGS}" -DEXPECT_RC=${T_RC} ${expect}
      -P ${MS_TESTS_DIR}/cli/expect.cmake)
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
endfunction()

# ms_add_shared_test(NAME RC <code> OUT <regex> [TIMEOUT <s>]
#                    [LABELS <label>...] CMD <arg>...)
# Runs CMD through needs_shared.cmake: skipped without ../shared (SHARED_DIR
# in CMD names it), else the exit code is RC and stdout matches OUT.
function(ms_add_shared_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "RC;OUT;TIMEOUT" "CMD;LABELS")
  _ms_flat(T_CMD)
  _ms_flat(T_LABELS)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DSHARED=${MS_SHARED_DIR} "-DCMD=${T_CMD}" "-DEXPECT_OUT=${T_OUT}"
      -DEXPECT_RC=${T_RC} -P ${MS_TESTS_DIR}/needs_shared.cmake)
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" SKIP_REGULAR_EXPRESSION "skipped: ")
  if(DEFINED T_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()

# ms_add_fidelity_play(WHAT CI_NAME SWEEP_NAME TIMEOUT [CI_MAPS <maps>] DEFS <-D...>)
# Two tests of native MicroRTS matches against the jar's (bots/fidelity_play.cmake,
# which DEFS parameterise): CI_NAME (label harness) keeps one match in eight
# on CI_MAPS (default MS_PLAY_MAPS), SWEEP_NAME (label sweep) plays them all on
# MS_PLAY_MAPS. Table 2, conflict policy 1, 5000 cycles. Needs a JVM.
function(ms_add_fidelity_play what ci_name sweep_name timeout)
  cmake_parse_arguments(PARSE_ARGV 4 T "" "CI_MAPS" "DEFS")
  if(NOT MS_JAVA_EXE)
    return()
  endif()
  if(NOT DEFINED T_CI_MAPS)
    set(T_CI_MAPS "${MS_PLAY_MAPS}")
  endif()
  foreach(plan ci sweep)
    if(plan STREQUAL "ci")
      set(name ${ci_name})
      set(stride 8)
      set(labels "harness")
      set(maps "${T_CI_MAPS}")
    else()
      set(name ${sweep_name})
      set(stride 1)
      set(labels "sweep")
      set(maps "${MS_PLAY_MAPS}")
    endif()
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND} -DJAVA=${MS_JAVA_EXE} -DHARNESS=${MS_HARNESS_DIR}
        -DJAR=${CMAKE_BINARY_DIR}/java/microsynth-harness.jar -DEXE=$<TARGET_FILE:microsynth_cli>
        -DOUT=${CMAKE_CURRENT_BINARY_DIR}/play-${what}-${plan} "-DMAPS=${maps}"
        -DEXTRA=${MS_SHARED_DIR}/data/microrts/maps -DSTRIDE=${stride} ${T_DEFS}
        -DUTT=2 -DCONFLICT=1 -DCYCLES=5000 -P ${MS_TESTS_DIR}/bots/fidelity_play.cmake)
    set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_REGULAR_EXPRESSION "skipped: "
      TIMEOUT ${timeout})
  endforeach()
endfunction()

# ms_add_script_test(NAME SCRIPT <file> [DIR <folder>] [TIMEOUT <s>] [LABELS <label>...]
#                    [DEFS <-D...>...])
# Runs a test script (cmake -P) with CMD (microsynth), DIR (a scratch folder
# of that name in this directory's build tree) and DEFS.
function(ms_add_script_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "SCRIPT;DIR;TIMEOUT" "LABELS;DEFS")
  _ms_flat(T_LABELS)
  set(dir)
  if(DEFINED T_DIR)
    set(dir -DDIR=${CMAKE_CURRENT_BINARY_DIR}/${T_DIR})
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:microsynth_cli> ${dir} ${T_DEFS} -P ${T_SCRIPT})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  if(DEFINED T_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()
