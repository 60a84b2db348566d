cmake_minimum_required(VERSION 3.20)
# RandomBiasedAI draws from util.Sampler's static generator, which the
# recorder leaves unseeded, so its recordings cannot be reproduced; Match
# --seed S seeds it (new Random(S * 1000003 + 3)) and `microsynth play
# --seed S` seeds the native bot alike. For each seed, map and seat of
# RandomBiasedAI against OPPONENT, the official match (Match --digest) and
# the native one must end with the same winner, cycle count and final
# state (digest = SHA-256 of GameState.toJSON). Skips without the harness.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${JAR}")
string(REPLACE "," ";" MAPS "${MAPS}")
string(REPLACE "," ";" SEEDS "${SEEDS}")
file(MAKE_DIRECTORY "${OUT}")
set(n 0)
set(bad 0)
foreach(map IN LISTS MAPS)
  foreach(seed IN LISTS SEEDS)
    foreach(seat 0 1)
      if(seat EQUAL 0)
        set(p0 RandomBiasedAI)
        set(p1 ${OPPONENT})
      else()
        set(p0 ${OPPONENT})
        set(p1 RandomBiasedAI)
      endif()
      execute_process(COMMAND ${JAVA} -Djava.awt.headless=true -cp ${JAR} ai.microsynth.harness.Match
          --harness ${HARNESS} --map ${map} --p0 ${p0} --p1 ${p1} --seed ${seed} --max-cycles ${CYCLES} --digest
        RESULT_VARIABLE rc OUTPUT_VARIABLE jout ERROR_VARIABLE err)
      if(NOT rc EQUAL 0 OR NOT jout MATCHES "digest=([0-9a-f]+)\n(winner=-?[0-9]+ cycles=[0-9]+)\n$")
        message(FATAL_ERROR "official match failed (${rc}):\n${jout}${err}")
      endif()
      set(want "${CMAKE_MATCH_2} digest=${CMAKE_MATCH_1}")
      set(final "${OUT}/final.json")
      file(REMOVE "${final}")
      execute_process(COMMAND ${EXE} play --map ${map} --p0 ${p0} --p1 ${p1} --seed ${seed} --max-cycles ${CYCLES}
          --final-json ${final}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      string(REGEX MATCH "winner=-?[0-9]+ cycles=[0-9]+" got "${out}")
      if(EXISTS "${final}")
        file(SHA256 "${final}" sum)
        string(SUBSTRING "${sum}" 0 16 sum)
        string(APPEND got " digest=${sum}")
      endif()
      math(EXPR n "${n} + 1")
      if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
        math(EXPR bad "${bad} + 1")
        message("MISMATCH ${map} seed ${seed} ${p0} vs ${p1}: official '${want}', native '${got}' (exit ${rc})\n${err}")
      else()
        message("ok ${map} seed ${seed} ${p0} vs ${p1}: ${got}")
      endif()
    endforeach()
  endforeach()
endforeach()
message("matches=${n} mismatches=${bad}")
if(NOT bad EQUAL 0)
  message(FATAL_ERROR "native RandomBiasedAI matches end differently from the official ones")
endif()
