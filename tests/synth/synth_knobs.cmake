cmake_minimum_required(VERSION 3.20)
# The search knobs through each front end: a knob of another algorithm and a value out of range are usage
# errors (exit 2) with the library's one message, and every help lists the knobs from the table.
set(common --evals 10 --seed 1 -o x.txt)
set(cases
  "synth --game planetwars --algo sa --uct-c 4|--uct-c applies to uct, sketch-uct only"
  "synth --game microrts --map m.xml --opponent WorkerRush --algo sa --neighbours 0|--neighbours: '0' is not an integer in [1, 65536]"
  "synth --game cantstop --algo uct --restart best|--restart applies to sa, sketch-sa only"
  "selfplay --game cantstop --loop ibr --br sa --hss-passes 2|--hss-passes applies to hss only")
foreach(c IN LISTS cases)
  string(FIND "${c}" "|" bar)
  string(SUBSTRING "${c}" 0 ${bar} args)
  math(EXPR from "${bar} + 1")
  string(SUBSTRING "${c}" ${from} -1 want)
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND ${CMD} ${args} ${common} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${want}" pos)
  if(NOT rc EQUAL 2 OR pos EQUAL -1)
    message(FATAL_ERROR "${args}: exit ${rc}, stderr lacks '${want}': ${err}")
  endif()
endforeach()
foreach(help "synth;--game;microrts;--help" "synth;--game;cantstop;--help" "synth;--game;planetwars;--help"
             "selfplay;--help")
  execute_process(COMMAND ${CMD} ${help} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}" "--hss-confirm N (hss)\n      re-scorings" pos)
  if(NOT rc EQUAL 0 OR pos EQUAL -1)
    message(FATAL_ERROR "${help}: exit ${rc}, the knobs are not listed: ${out}")
  endif()
endforeach()
