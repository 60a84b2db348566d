cmake_minimum_required(VERSION 3.20)
# `planetwars bench --official` starts PlayGame without a shell: a stand-in
# `java` first on PATH records its arguments and answers as PlayGame does. The
# starter path holds a quote and a '$', which a shell command line would
# have broken or expanded; each must arrive as one intact argument.
# Inputs: CMD (microsynth), MAP (a map file), DIR (scratch).
file(REMOVE_RECURSE "${DIR}")
set(starter "${DIR}/it's_$HOME")
file(MAKE_DIRECTORY "${DIR}/bin" "${DIR}/maps" "${starter}/tools")
file(COPY_FILE "${MAP}" "${DIR}/maps/map1.txt")
file(WRITE "${DIR}/bin/java" "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"${DIR}/args.txt\"\n"
  "printf 'Turn 1\\nPlayer 1 Wins!\\n' >&2\n")
file(CHMOD "${DIR}/bin/java" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${DIR}/bin:$ENV{PATH}"
  ${CMD} planetwars bench --official "${starter}" --maps "${DIR}/maps" --games 1
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "games=1 official_seconds=")
  message(FATAL_ERROR "exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
file(STRINGS "${DIR}/args.txt" args)
set(want "-jar;${starter}/tools/PlayGame.jar;${DIR}/maps/map1.txt;1000;200;/dev/null")
list(APPEND want "java -jar ${starter}/example_bots/BullyBot.jar" "java -jar ${starter}/example_bots/BullyBot.jar")
if(NOT args STREQUAL want)
  message(FATAL_ERROR "PlayGame's arguments:\n${args}\nexpected:\n${want}")
endif()
