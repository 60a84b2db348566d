cmake_minimum_required(VERSION 3.20)
# Fidelity (b): the Java recorder plays official bots in the official jar
# (plan PLAN), caching the recordings in the build tree by harness and
# recorder version; then `microsynth diff` replays them natively and every
# cycle must match. Skips (77) without the harness, fails under CI instead.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${JAR}")
file(SHA256 "${HARNESS}/microrts.jar" jar_sum)
file(SHA256 "${JAR}" rec_sum)
string(SUBSTRING "${jar_sum}" 0 12 jar_sum)
string(SUBSTRING "${rec_sum}" 0 12 rec_sum)
set(dir "${OUT}/${PLAN}-${jar_sum}-${rec_sum}")
if(NOT EXISTS "${dir}/DONE")
  file(GLOB old "${OUT}/${PLAN}-*")
  if(old)
    file(REMOVE_RECURSE ${old})
  endif()
  execute_process(COMMAND ${JAVA} -Djava.awt.headless=true -cp ${JAR} ai.microsynth.harness.Recorder
      --harness ${HARNESS} --extra-maps ${MAPS} --out ${dir} --plan ${PLAN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "recorder failed (${rc}):\n${err}")
  endif()
  file(WRITE "${dir}/DONE" "${out}")
endif()
file(READ "${dir}/DONE" done)
string(REGEX MATCHALL "cut=player" cuts "${done}")
list(LENGTH cuts ncuts)
execute_process(COMMAND ${EXE} diff ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}matches cut short by a crashed or hung bot: ${ncuts}")
if(NOT out MATCHES "matches=${EXPECT_MATCHES} cycles=[0-9]+ divergences=0\n$" OR NOT rc EQUAL 0)
  message(FATAL_ERROR "native engine diverges from the recordings (exit ${rc})")
endif()
