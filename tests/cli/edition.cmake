cmake_minimum_required(VERSION 3.20)
# The harness's edition is read from its microrts.jar, and the commands that
# play native bots follow it unless --edition names one. Stand-in harnesses
# (written here: a jar holding two "class files" that carry only the names
# the detection looks for) stand for the builds:
#   2022   AStarPathFinding without runAStar, LightRush.workersBehavior on a
#          PhysicalGameState (the gym-microrts build)
#   2023   runAStar, workersBehavior on a GameState (official repository, 2024+)
#   2023m  workersBehavior on a GameState, no runAStar yet (May-Nov 2023 builds)
#   none   neither class: not a MicroRTS jar
#   nozip  microrts.jar is no zip at all
# EXE: microsynth; OUT: scratch directory; MAP: a small map file.
file(REMOVE_RECURSE "${OUT}")

function(stand_in name astar light)
  set(dir "${OUT}/${name}")
  file(MAKE_DIRECTORY "${dir}/classes")
  set(files)
  if(astar)
    file(WRITE "${dir}/classes/ai/abstraction/pathfinding/AStarPathFinding.class" "stand-in ${astar} end")
    list(APPEND files ai/abstraction/pathfinding/AStarPathFinding.class)
  endif()
  if(light)
    file(WRITE "${dir}/classes/ai/abstraction/LightRush.class" "stand-in ${light} end")
    list(APPEND files ai/abstraction/LightRush.class)
  endif()
  if(NOT files)
    file(WRITE "${dir}/classes/README" "no classes")
    list(APPEND files README)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf "${dir}/microrts.jar" --format=zip ${files}
    WORKING_DIRECTORY "${dir}/classes" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot write the stand-in jar ${name}")
  endif()
  file(WRITE "${dir}/HARNESS" "version=stand-in-${name}\n")
endfunction()

set(old_light "workersBehavior (Ljava/util/List;Lrts/Player;Lrts/PhysicalGameState;)V")
set(new_light "workersBehavior (Ljava/util/List;Lrts/Player;Lrts/GameState;)V")
stand_in(2022 "findPathToPositionInRange addToOpen" "${old_light}")
stand_in(2023 "findPathToPositionInRange runAStar addToOpen" "${new_light}")
stand_in(2023m "findPathToPositionInRange addToOpen" "${new_light}")
stand_in(none "" "")
file(MAKE_DIRECTORY "${OUT}/nozip")
file(WRITE "${OUT}/nozip/microrts.jar" "not a zip\n")
file(WRITE "${OUT}/nozip/HARNESS" "version=stand-in-nozip\n")

# run(harness args... ): sets rc, out, err in the caller
macro(run harness)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MICROSYNTH_HARNESS=${OUT}/${harness} ${EXE} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()

foreach(case "2022|0|2022" "2023|0|2023" "2023m|0|2023" "none|1|unknown" "nozip|1|unknown")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 h)
  list(GET parts 1 want_rc)
  list(GET parts 2 want)
  run(${h} harness)
  if(NOT rc EQUAL want_rc OR NOT out MATCHES "ok=[01] edition=${want}\n$")
    message(FATAL_ERROR "harness ${h}: exit ${rc} (want ${want_rc}), want edition=${want}:\n${out}${err}")
  endif()
  message("harness ${h}: edition=${want}")
endforeach()

# play follows the harness; --edition overrides it; no readable jar: 2022
foreach(case "2022||2022" "2023||2023" "2023m||2023" "2023|2022|2022" "2022|2023|2023" "nozip||2022")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 h)
  list(GET parts 1 flag)
  list(GET parts 2 want)
  set(extra)
  if(flag)
    set(extra --edition ${flag})
  endif()
  run(${h} play --map ${MAP} --p0 WorkerRush --p1 PassiveAI ${extra})
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^play [^\n]* edition=${want}\n")
    message(FATAL_ERROR "play on harness ${h} ${extra}: want edition=${want}, exit ${rc}:\n${out}${err}")
  endif()
endforeach()

# a bad --edition is bad usage for every command that takes one
foreach(cmd "play;--edition;2021;--map;${MAP};--p0;WorkerRush;--p1;PassiveAI"
    "botdiff;--edition;2021;--p0;WorkerRush;x.rec.gz" "bench;bots;--edition;2021;x.xml"
    "bench;fair;--edition;2021"
    "serve;--edition;2021;--port;-1")
  run(2022 ${cmd})
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--edition needs 2022 or 2023")
    message(FATAL_ERROR "${cmd}: exit ${rc}, want 2:\n${out}${err}")
  endif()
endforeach()
