cmake_minimum_required(VERSION 3.20)
# Programs shipped in the jar: a copy of microsynth.jar gets a
# programs/index.txt naming a program for one map (by the full fingerprint
# that MapFingerprint prints), a native bot by default and a portfolio for
# unseen maps; the bot built with the harness's (UnitTypeTable) constructor
# must play the default before any game, the shipped program on that map,
# on a second map the portfolio keyed to it, opening with a `candidate`
# program, and elsewhere the `unseen` portfolio opening with the shipped
# program (the nearest).
#   cmake -DJAVA= -DJAR_TOOL= -DHARNESS= -DBOT_JAR= -DTOOLS= -DPROGRAM=file -DOUT=dir -P jni_jar_programs.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${BOT_JAR}" "${TOOLS}")
set(map 8x8/basesWorkers8x8A.xml)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/stage/programs")
configure_file("${BOT_JAR}" "${OUT}/microsynth.jar" COPYONLY)
execute_process(COMMAND ${JAVA} -cp "${HARNESS}/microrts.jar:${OUT}/microsynth.jar" ai.microsynth.MapFingerprint
    ${HARNESS}/maps/${map}
  RESULT_VARIABLE rc OUTPUT_VARIABLE fp ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT fp MATCHES "^(m:[0-9a-f]+) (t:[0-9a-f]+) ")
  message(FATAL_ERROR "MapFingerprint failed (${rc}): ${fp}${err}")
endif()
set(key "${CMAKE_MATCH_1}")
set(map2 16x16/basesWorkers16x16A.xml)
execute_process(COMMAND ${JAVA} -cp "${HARNESS}/microrts.jar:${OUT}/microsynth.jar" ai.microsynth.MapFingerprint
    ${HARNESS}/maps/${map2}
  RESULT_VARIABLE rc OUTPUT_VARIABLE fp2 ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT fp2 MATCHES "^(m:[0-9a-f]+) ")
  message(FATAL_ERROR "MapFingerprint failed (${rc}): ${fp2}${err}")
endif()
set(key2 "${CMAKE_MATCH_1}")
file(WRITE "${OUT}/stage/programs/index.txt"
  "# written by tests/bridge/jni_jar_programs.cmake\ndefault HeavyRush\nunseen portfolio:unseen.portfolio\n"
  "${key} program:shipped.txt   # ${map}\n${key2} portfolio:keyed.portfolio   # ${map2}\n"
  "near 8 8 1 1 2 8 0 program:shipped.txt\ncandidate program:extra.txt\n")
file(WRITE "${OUT}/stage/programs/unseen.portfolio"
  "microsynth-portfolio 1\ncycle 100\nbudget-ms 5\nseeds 1\nfield WorkerRush LightRush\n")
file(WRITE "${OUT}/stage/programs/keyed.portfolio"
  "microsynth-portfolio 1\ncycle 100\nbudget-ms 5\nfield WorkerRush\nopening program:extra.txt\n")
file(WRITE "${OUT}/stage/programs/extra.txt" "for(Unit u){u.train(Worker,EnemyDir,8) u.attack(Closest)}\n")
configure_file("${PROGRAM}" "${OUT}/stage/programs/shipped.txt" COPYONLY)
execute_process(COMMAND ${JAR_TOOL} uf "${OUT}/microsynth.jar" -C "${OUT}/stage" programs
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "jar uf failed")
endif()
execute_process(COMMAND ${JAVA} -Djava.awt.headless=true -cp "${TOOLS}:${HARNESS}/microrts.jar:${OUT}/microsynth.jar"
    ai.microsynth.harness.JniChecks --harness ${HARNESS} --jar-program ${map} shipped.txt HeavyRush
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("${fp}${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "checks=3 failed=0")
  message(FATAL_ERROR "the shipped program was not played (exit ${rc})")
endif()
