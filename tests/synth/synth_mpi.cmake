cmake_minimum_required(VERSION 3.20)
# Synthesis across MPI ranks (issue 27). MODE equal: the same evaluation-budgeted synthesis of GAME in
# one process, then under mpirun with 3 ranks (--threads 1: rank 0 leaves every task to ranks 1-2),
# writes the same program file byte for byte (but for the command line and the lines with elapsed
# times), and ranks 1-2 did evaluate tasks.
# (GAME planetwars: equal only, with ../shared's maps.)
# --progress-json gives each serving rank's tasks in its lines (MODE equal).
# MODE threads: the same, with --threads 2 in one process and under 2 ranks (rank 0 searches beside one
# helper thread, rank 1 serves on two worker threads): equal files, and (MicroRTS) rank 1 had 2 tasks
# at once.
# MODE java: threads with a Java opponent (ai.abstraction.LightDefense in the hosted JVM) beside
# WorkerRush: rank 1 starts its own JVM (java/CMakeLists.txt registers it, with the harness).
# MODE resume: a MicroRTS run under 3 ranks, rank 0 killed (SIGKILL) in the middle of its checkpoint,
# resumed under 2 ranks, writes the program file of an uninterrupted single-process run.
# MODE rankdies: the same with a serving rank (2) killed: the run ends at once, mpirun naming the rank.
# MODE selfplay: microsynth selfplay (fictitious play, MicroRTS) in one process and under 3 ranks: the
# same program files for every iteration.
# MODE mismatch: ranks 1-2 built another problem (another cycle limit) than rank 0: the run must end
# with an error naming the rank, not hang (the test's timeout catches a hang).
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
set(ms_skip "^# command: |elapsed")
if(GAME STREQUAL "planetwars")
  # Planet Wars' maps are reference data of ../shared (SHARED): skipped without it, failed under CI
  set(NEEDS "${SHARED}/data/planetwars/maps")
  include(${CMAKE_CURRENT_LIST_DIR}/../guard.cmake)
  ms_skip_without(${NEEDS})
  set(args synth --game planetwars --algo sa --evals 20 --seed 1 --train-maps 2 --maps ${NEEDS} --threads 1
      --no-progress)
  set(ms_skip "^# command: |^# algorithm ") # its header gives the time on the algorithm's line
elseif(GAME STREQUAL "cantstop")
  set(args synth --game cantstop --algo sa --initial couto --evals 40 --matches 1000 --final-matches 400
      --seed 5 --threads 1 --no-progress)
else()
  set(args synth --game microrts --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush --algo sa --evals 40
      --seed 3 --threads 1 --no-progress --no-harness)
endif()
set(mpi ${MPIRUN} --oversubscribe)

# Runs ${CMD} ${args} ARGN in one process (stdout in out); fails unless it exits 0.
macro(run_one)
  execute_process(COMMAND ${CMD} ${args} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "one process: exit ${rc}\n${out}\n${err}")
  endif()
endmacro()

# Runs ${CMD} ${args} ARGN under mpirun -np NP (stdout in out2, stderr in err2); fails unless it exits 0
# and ranks 1..NP-1 evaluated tasks: their number in `remote`, the most at once on one rank in `most`.
# Open MPI keeps allocations until exit (its plugins are unloaded before LeakSanitizer can name them):
# under ASan the leak check covers the one-process runs and test_synth's in-process remote workers.
macro(run_mpi np)
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")
  math(EXPR last "${np} - 1")
  execute_process(COMMAND ${mpi} -np ${np} ${CMD} ${args} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${np}: exit ${rc}\n${out2}\n${err2}")
  endif()
  if(NOT err2 MATCHES "MPI: ${np} ranks; ranks 1-${last} evaluated ([0-9]+) tasks in [0-9]+ slots, at most ([0-9]+) at once")
    message(FATAL_ERROR "rank 0 did not report the other ranks' tasks:\n${err2}")
  endif()
  set(remote ${CMAKE_MATCH_1})
  set(most ${CMAKE_MATCH_2})
  if(remote EQUAL 0)
    message(FATAL_ERROR "ranks 1-${last} evaluated no task:\n${err2}")
  endif()
endmacro()

# DIR/threads.NAME and DIR/mpi.NAME equal but for the lines matching SKIP (command line, times).
macro(compare_files name skip)
  foreach(f threads mpi)
    file(STRINGS ${DIR}/${f}.${name} lines)
    list(FILTER lines EXCLUDE REGEX "${skip}")
    list(JOIN lines "\n" ${f}_text)
  endforeach()
  if(NOT threads_text STREQUAL mpi_text)
    message(FATAL_ERROR "mpirun wrote another ${name} than one process:\n--- one process\n${threads_text}\n--- mpi\n${mpi_text}")
  endif()
endmacro()

if(MODE STREQUAL "resume" OR MODE STREQUAL "rankdies")
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")
  list(TRANSFORM args REPLACE "^40$" "600")
  run_one(-o ${DIR}/threads.ms)
  # the killed rank is kill_after's child, killed as a crashed node would be once rank 0's checkpoint
  # reaches 12,000 bytes: mpirun then ends the other ranks (SIGKILL to mpirun itself would leave the
  # ranks running on)
  set(ck ${DIR}/run.ckpt)
  set(run ${CMD} ${args} --checkpoint ${ck} -o ${DIR}/mpi.ms)
  if(MODE STREQUAL "resume")
    set(ranks -np 1 ${KILL} ${ck} 12000 ${run} : -np 2 ${run})
    set(dead 0)
  else()
    set(ranks -np 2 ${run} : -np 1 ${KILL} ${ck} 12000 ${run})
    set(dead 2)
  endif()
  execute_process(COMMAND ${mpi} ${ranks} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "killed at [0-9]+ bytes")
    message(FATAL_ERROR "rank ${dead} was not killed during the checkpoint (exit ${rc}):\n${out}\n${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "process rank ${dead}")
    message(FATAL_ERROR "the run ended (exit ${rc}) without naming rank ${dead}:\n${out}\n${err}")
  endif()
  if(EXISTS ${DIR}/mpi.ms)
    message(FATAL_ERROR "the killed run wrote its program file")
  endif()
  run_mpi(2 --checkpoint ${DIR}/run.ckpt --resume -o ${DIR}/mpi.ms)
  compare_files(ms "${ms_skip}")
  message(STATUS "rank ${dead} killed under 3 ranks, resumed under 2: equal files; ${remote} tasks on rank 1")
  return()
endif()

if(MODE STREQUAL "selfplay")
  # fictitious play on MicroRTS, 3 iterations: iterations 1-2 answer programs, which ranks 1-2 must make
  # into the same problems as rank 0; every iteration's file equals one process's
  set(args selfplay --game microrts --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush --opponent LightRush
      --loop fp --br sa --iterations 3 --evals 40 --seed 1 --threads 1 --no-progress)
  run_one(-o ${DIR}/threads.txt)
  run_mpi(3 -o ${DIR}/mpi.txt)
  foreach(suffix "" .iter-0 .iter-1 .iter-2)
    compare_files(txt${suffix} "^# command: |seconds")
  endforeach()
  message(STATUS "selfplay: equal files for 3 iterations; ${remote} tasks on ranks 1-2")
  return()
endif()

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

set(np 3)
if(MODE STREQUAL "java")
  list(FIND args WorkerRush i)
  list(INSERT args ${i} ai.abstraction.LightDefense --opponent)
endif()
if(MODE STREQUAL "threads" OR MODE STREQUAL "java")
  list(FIND args --threads i)
  math(EXPR i "${i} + 1")
  list(REMOVE_AT args ${i})
  list(INSERT args ${i} 2)
  if(GAME STREQUAL "microrts")
    list(APPEND args --neighbours 4) # 8 tasks a batch, so rank 1 gets 2 at once
  endif()
  set(np 2)
endif()
if(MODE STREQUAL "equal")
  # --progress-json under MPI: rank 0 alone writes it, each line per new best giving each serving rank's
  # tasks and seconds evaluating (what `microsynth view` shows); one process's lines name no rank
  run_one(-o ${DIR}/threads.ms --progress-json ${DIR}/threads.progress.jsonl)
  run_mpi(${np} -o ${DIR}/mpi.ms --progress-json ${DIR}/mpi.progress.jsonl)
  file(STRINGS ${DIR}/mpi.progress.jsonl pj)
  list(GET pj -1 last_line)
  if(NOT last_line MATCHES "\"ranks\":\\[\\[1,([0-9]+),[0-9.]+\\],\\[2,([0-9]+),[0-9.]+\\]\\]")
    message(FATAL_ERROR "the progress file's last line lacks ranks 1 and 2:\n${last_line}")
  endif()
  math(EXPR shown "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
  if(shown EQUAL 0 OR shown GREATER remote)
    message(FATAL_ERROR "ranks' tasks ${shown} in the progress file, ${remote} in rank 0's account")
  endif()
  file(READ ${DIR}/threads.progress.jsonl one)
  if(one MATCHES "ranks" OR NOT one MATCHES "^{\"progress\":1,\"game\":\"${GAME}\"")
    message(FATAL_ERROR "one process's progress file:\n${one}")
  endif()
else()
  run_one(-o ${DIR}/threads.ms)
  run_mpi(${np} -o ${DIR}/mpi.ms)
endif()
# (MicroRTS only: a Can't Stop task is so short that rank 0's helper thread may take nearly all of them)
if(np EQUAL 2 AND GAME STREQUAL "microrts" AND NOT most EQUAL 2)
  message(FATAL_ERROR "rank 1 never had 2 tasks at once with --threads 2:\n${err2}")
endif()
compare_files(ms "${ms_skip}")
string(REGEX MATCH "(^|\n)psi=[0-9.]+" psi "${out2}")
string(STRIP "${psi}" psi)
message(STATUS "${GAME}: equal files; ${psi}; ${remote} tasks on ranks 1-${last}, at most ${most} at once")
