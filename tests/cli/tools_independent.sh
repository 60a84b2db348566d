#!/usr/bin/env bash
# No microsynth subcommand calls a function defined in another command's file
# (shared helpers live in tools/cli.c, tools/synth_common.c and
# tools/pw_common.c). The only calls allowed across files are a command
# handing over to its own subcommands: bench -> bench_*, synth -> the game
# front ends and plot, planetwars -> cmd_pw_*, gdl -> cmd_gdl_*.
set -euo pipefail
cd "$(dirname "$0")/../../tools"
bad=0
for f in cmd_*.c synth_cantstop.c synth_microrts.c synth_planetwars.c synth_plot.c; do
	for fn in $(grep -oE '^[a-z][a-z_ *]* \**[a-z_0-9]+\(' "$f" | grep -v '^static' |
		sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/'); do
		for g in cmd_*.c synth_*.c; do
			[ "$g" = "$f" ] && continue
			grep -q "\b$fn(" "$g" || continue
			case "$g:$fn" in
			cmd_bench.c:cmd_bench_*) ;;
			cmd_synth.c:synth_*_main | cmd_synth.c:synth_*_usage) ;;
			cmd_planetwars.c:cmd_pw_*) ;;
			cmd_gdl.c:cmd_gdl_*) ;;
			*) echo "$g calls $fn, defined in $f"; bad=1 ;;
			esac
		done
	done
done
[ "$bad" = 0 ] && echo "commands are independent"
exit "$bad"
