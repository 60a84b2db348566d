cmake_minimum_required(VERSION 3.20)
# Test (c) of issue 6: a bot plays the same match natively (jni_play, the
# library's match loop) and as the JNI bot inside the official jar against
# a deterministic Java bot (the jar's own Match runner, one JVM per match):
# same winner, same cycle count, same final state (the SHA-256 of
# GameState.toJSON, which Match prints as digest=).
#   CASES: NAME|MAP|P0|P1|MAX_CYCLES;...  where a player is jni:SPEC (our bot
#   playing SPEC, natively the same SPEC) or java:NAME (a Java bot in the jar,
#   natively the native bot of that name). One JNI spec per match.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${HARNESS_JAR}" "${BOT_JAR}")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(bad 0)
set(n 0)
foreach(c IN LISTS CASES)
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 map)
  list(GET parts 2 p0)
  list(GET parts 3 p1)
  list(GET parts 4 cycles)
  set(spec "")
  set(native)
  set(java)
  foreach(p IN ITEMS "${p0}" "${p1}")
    if(p MATCHES "^jni:(.+)$")
      if(spec AND NOT spec STREQUAL CMAKE_MATCH_1)
        message(FATAL_ERROR "${name}: two different JNI specs")
      endif()
      set(spec "${CMAKE_MATCH_1}")
      list(APPEND native "${CMAKE_MATCH_1}")
      list(APPEND java ai.microsynth.MicrosynthAI)
    elseif(p MATCHES "^java:(.+)$")
      list(APPEND native "${CMAKE_MATCH_1}")
      list(APPEND java "${CMAKE_MATCH_1}")
    else()
      message(FATAL_ERROR "${name}: player '${p}' is neither jni:SPEC nor java:NAME")
    endif()
  endforeach()
  list(GET native 0 n0)
  list(GET native 1 n1)
  list(GET java 0 j0)
  list(GET java 1 j1)
  execute_process(COMMAND ${PLAY} ${HARNESS}/maps/${map} ${n0} ${n1} 2 1 ${cycles} ${OUT}/${name}.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE nout ERROR_VARIABLE nerr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: native match failed (${rc}): ${nout}${nerr}")
  endif()
  string(REGEX MATCH "winner=-?[0-9]+ cycles=[0-9]+" native_result "${nout}")
  file(SHA256 ${OUT}/${name}.json h)
  string(SUBSTRING "${h}" 0 16 native_digest)
  execute_process(COMMAND ${JAVA} -Djava.awt.headless=true "-Dmicrosynth.bot=${spec}"
      -cp "${HARNESS_JAR}:${HARNESS}/microrts.jar:${BOT_JAR}" ai.microsynth.harness.Match --bots none
      --harness ${HARNESS} --map ${map} --p0 ${j0} --p1 ${j1} --utt 2 --conflict 1 --max-cycles ${cycles} --digest
    RESULT_VARIABLE rc OUTPUT_VARIABLE jout ERROR_VARIABLE jerr TIMEOUT 600)
  string(REGEX MATCH "winner=-?[0-9]+ cycles=[0-9]+" jni_result "${jout}")
  string(REGEX MATCH "digest=([0-9a-f]+)" _ "${jout}")
  set(jni_digest "${CMAKE_MATCH_1}")
  math(EXPR n "${n} + 1")
  if(NOT rc EQUAL 0 OR NOT jout MATCHES "result crashed=-1 timedout=-1" OR NOT jni_result STREQUAL native_result
     OR NOT jni_digest STREQUAL native_digest OR jerr MATCHES "MicrosynthAI\\(")
    math(EXPR bad "${bad} + 1")
    message("MISMATCH ${name}: native ${native_result} digest=${native_digest}; "
      "jni ${jni_result} digest=${jni_digest} (exit ${rc})\n${jout}\n${jerr}")
  else()
    message("ok ${name}: ${native_result} digest=${native_digest}")
  endif()
endforeach()
message("matches=${n} mismatches=${bad}")
if(NOT bad EQUAL 0 OR n EQUAL 0)
  message(FATAL_ERROR "the JNI bot plays differently from the native one")
endif()
