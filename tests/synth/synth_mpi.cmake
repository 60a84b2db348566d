cmake_minimum_required(VERSION 3.20)
# Synthesis across MPI ranks (issue 27). MODE equal: the same evaluation-budgeted synthesis of GAME with
# 1 or 2 threads, then under mpirun with 3 ranks, writes the same program file byte for byte (but for the
# command line and the lines with elapsed times), and the other ranks did evaluate tasks.
# MODE mismatch: ranks 1-2 built another problem (another cycle limit) than rank 0: the run must end
# with an error naming the rank, not hang (the test's timeout catches a hang).
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
if(GAME STREQUAL "cantstop")
  # one thread on rank 0: the other ranks take most of the 10 shards of each evaluation
  set(args synth --game cantstop --algo sa --initial couto --evals 40 --matches 1000 --final-matches 400
      --seed 5 --threads 1 --no-progress)
else()
  set(args synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush --algo sa --evals 40
      --seed 3 --threads 2 --no-progress --no-harness)
endif()
set(mpi ${MPIRUN} --oversubscribe)

if(MODE STREQUAL "mismatch")
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")
  execute_process(COMMAND ${mpi} -np 1 ${CMD} ${args} -o ${DIR}/a.ms : -np 2 ${CMD} ${args} --max-cycles 2000
      -o ${DIR}/b.ms
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "ranks with different problems ran to the end:\n${out}\n${err}")
  endif()
  if(NOT err MATCHES "rank [12] built another problem than rank 0")
    message(FATAL_ERROR "exit ${rc} without naming the rank:\n${out}\n${err}")
  endif()
  return()
endif()

execute_process(COMMAND ${CMD} ${args} -o ${DIR}/threads.ms
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "threaded synth exit ${rc}\n${out}\n${err}")
endif()
# Open MPI keeps allocations until exit (its plugins are unloaded before LeakSanitizer can name them):
# under ASan the leak check covers the threaded run above and test_synth's in-process remote workers.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
execute_process(COMMAND ${mpi} -np 3 ${CMD} ${args} -o ${DIR}/mpi.ms
  RESULT_VARIABLE rc OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mpirun synth exit ${rc}\n${out2}\n${err2}")
endif()
if(NOT err2 MATCHES "MPI: 3 ranks; ranks 1-2 evaluated ([0-9]+) tasks")
  message(FATAL_ERROR "rank 0 did not report the other ranks' tasks:\n${err2}")
endif()
if(CMAKE_MATCH_1 EQUAL 0)
  message(FATAL_ERROR "ranks 1-2 evaluated no task:\n${err2}")
endif()
set(remote ${CMAKE_MATCH_1})
foreach(f threads mpi)
  file(STRINGS ${DIR}/${f}.ms lines)
  list(FILTER lines EXCLUDE REGEX "^# command: |elapsed")
  list(JOIN lines "\n" ${f}_text)
endforeach()
if(NOT threads_text STREQUAL mpi_text)
  message(FATAL_ERROR "mpirun -np 3 wrote another program file than 2 threads:\n--- threads\n${threads_text}\n--- mpi\n${mpi_text}")
endif()
string(REGEX MATCH "(^|\n)psi=[0-9.]+" psi "${out2}")
string(STRIP "${psi}" psi)
message(STATUS "${GAME}: equal files; ${psi}; ${remote} tasks on ranks 1-2")
