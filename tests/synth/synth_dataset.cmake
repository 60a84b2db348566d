cmake_minimum_required(VERSION 3.20)
# The action score's data set (issue 45): `synth --score A --oracle CoacAI --save-dataset FILE` writes the
# oracle's recorded decisions; the same search with `--dataset FILE` instead of the oracle writes the same
# program (its C evaluations read the same states and actions back); a damaged data set is refused
# naming the file and line.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(common synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush --algo sketch-sa --score A
    --tiebreak length --evals 30 --sketch-evals 30 --seed 1 --no-harness --no-progress)
execute_process(COMMAND ${CMD} ${common} --oracle CoacAI --c-opponent LightRush --save-dataset ${DIR}/ds.jsonl.gz
    -o ${DIR}/recorded.ms RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recording run: exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMD} ${common} --dataset ${DIR}/ds.jsonl.gz -o ${DIR}/read.ms
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run from the data set: exit ${rc}\n${out}\n${err}")
endif()
foreach(f recorded read)
  file(STRINGS ${DIR}/${f}.ms lines)
  list(FILTER lines EXCLUDE REGEX "^# (command|algorithm|fingerprint)|seconds|elapsed")
  list(JOIN lines "\n" ${f}_text)
endforeach()
if(NOT recorded_text STREQUAL read_text)
  message(FATAL_ERROR "the data set read back gave another program:\n--- recorded\n${recorded_text}\n--- read\n${read_text}")
endif()
# A data set file with TEXT is refused (exit 2) with an error matching WANT.
macro(refused name text want)
  file(WRITE ${DIR}/${name}.jsonl "${text}")
  execute_process(COMMAND ${CMD} ${common} --dataset ${DIR}/${name}.jsonl -o ${DIR}/${name}.ms
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${want}")
    message(FATAL_ERROR "data set ${name}: exit ${rc}\n${err}")
  endif()
endmacro()
set(head "{\"format\":\"microsynth-rts-dataset/1\",\"maps\":")
refused(bad "${head}[\"8x8/basesWorkers8x8A.xml\"]}\n{\"map\":0,\"seat\":3}\n" "bad.jsonl: line 2: needs \"map\"")
refused(other "${head}[\"16x16/basesWorkers16x16A.xml\"]}\n" "map 16x16/basesWorkers16x16A.xml is not a --map of this run")
message(STATUS "the data set read back gives the recorded run's program")
