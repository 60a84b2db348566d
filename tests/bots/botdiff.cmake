cmake_minimum_required(VERSION 3.20)
# Decision identity (c): the official jar plays P0 against P1 on MAP; the
# native bots named for the seats must then return the recorded action at
# every cycle (on its own view when PO is set). Skips without the harness,
# fails under CI instead.
include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
ms_skip_without("${HARNESS}/microrts.jar" "${JAR}")
file(REMOVE_RECURSE "${OUT}")
if(NOT DEFINED SEED)
  set(SEED 0)
endif()
set(po_flag)
if(PO)
  set(po_flag --partially-observable)
endif()
execute_process(COMMAND ${EXE} record --out ${OUT} --map ${MAP} --p0 ${P0} --p1 ${P1} --utt ${UTT}
    --conflict ${CONFLICT} --max-cycles ${CYCLES} --seed ${SEED} ${po_flag}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "recorder failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${EXE} botdiff --p0 ${P0} --p1 ${P1} ${OUT}/match.rec.gz
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT out MATCHES "matches=1 decisions=[1-9][0-9]* mismatches=0\n$" OR NOT rc EQUAL 0)
  message(FATAL_ERROR "native bots decide differently from the official ones (exit ${rc})")
endif()
