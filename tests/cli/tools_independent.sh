#!/usr/bin/env bash
# No command calls into another command's code, in C and in Java.
#
# C: every row of the command table in tools/microsynth.c must be defined in a
# command file, and no function defined in a command file is called from any
# other file of tools/ (shared helpers included). Every file of tools/<game>/
# and tools/common/ is a command file unless SHARED lists it, so a new file or a new table row is
# checked without editing this script. The only calls allowed across files are
# a command handing over to its own subcommands: bench -> cmd_bench_*,
# synth -> plot, planetwars -> cmd_pw_*, gdl -> cmd_gdl_*. The game front ends
# (synth_<game>.c) are shared: synth and selfplay reach them through their rows.
#
# Java: a runner is any class under java/src with a main, but for library
# classes whose main only prints their own result (JAVA_LIBRARY); no other
# class names a runner in code (comments and string literals aside). Embedded
# is the one exception: its job is to run Match inside the harness class loader.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root/tools"
JAVA_LIBRARY="MapFingerprint"
SHARED="common/cli.c common/cli_lws.c common/synth_common.c common/synth_progress.c common/synth_mpi.c common/svg.c
	microrts/synth_microrts.c microrts/bench_java.c microrts/edition.c microrts/match_session.c microrts/recording.c microrts/recording_files.c cantstop/synth_cantstop.c
	planetwars/synth_planetwars.c planetwars/pw_common.c gdl/gdl_common.c kit/kit.c kit/proc.c"
# the folders of commands: tools/<game>/ and tools/common/
DIRS="common microrts cantstop catan gdl planetwars"
SHARED=$(echo $SHARED)
bad=0
fail() {
	echo "$*"
	bad=1
}

for s in $SHARED; do
	[ -f "$s" ] || fail "tools_independent.sh: shared helper $s does not exist (stale SHARED list)"
done
commands=()
for f in $(for d in $DIRS; do ls "$d"/*.c; done); do
	case " $SHARED " in *" $f "*) continue ;; esac
	commands+=("$f")
done
callers=(microsynth.c kit/*.c $(for d in $DIRS; do ls "$d"/*.c; done))

# Every command of the table is defined in exactly one command file.
rows=$(sed -nE 's/^[[:space:]]*\{ *"([a-z0-9_-]+)", *"[^"]*", *([a-z_0-9]+), *([a-z_0-9]+) *\},?$/\1 \2 \3/p' microsynth.c)
nrows=$(grep -cE '^[[:space:]]*\{ *"[a-z0-9_-]+", *"' microsynth.c)
[ -n "$rows" ] || fail "no command table found in tools/microsynth.c"
[ "$(printf '%s\n' "$rows" | grep -c .)" = "$nrows" ] ||
	fail "tools/microsynth.c: $nrows table rows but only $(printf '%s\n' "$rows" | grep -c .) read; update the pattern here"
covered=0
while read -r name run use; do
	[ -n "$name" ] || continue
	for fn in "$run" "$use"; do
		defs=$(grep -lE "^(int|void) $fn\(" "${callers[@]}" || true)
		case "$(printf '%s\n' $defs | grep -c .)" in
		1) ;;
		0) fail "command '$name': $fn is defined in no file of tools/"; continue ;;
		*) fail "command '$name': $fn is defined in several files: $defs"; continue ;;
		esac
		case " ${commands[*]} " in
		*" $defs "*) ;;
		*) fail "command '$name': $fn is defined in $defs, a shared helper, not a command file" ;;
		esac
	done
	covered=$((covered + 1))
done <<<"$rows"

# No file calls a function that a command file defines, but for the hand-overs.
for f in "${commands[@]}"; do
	for fn in $(grep -oE '^[a-z][a-z_ *]* \**[a-z_0-9]+\(' "$f" | grep -v '^static' |
		sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/'); do
		for g in $(grep -l "\b$fn(" "${callers[@]}"); do
			[ "$g" = "$f" ] && continue
			case "$g:$fn" in
			microsynth.c:cmd_*) ;;
			microrts/cmd_bench.c:cmd_bench_*) ;;
			common/cmd_synth.c:synth_plot_main) ;;
			planetwars/cmd_planetwars.c:cmd_pw_*) ;;
			gdl/cmd_gdl.c:cmd_gdl_*) ;;
			*) fail "$g calls $fn, defined in $f" ;;
			esac
		done
	done
done

# Java runners: no class names another runner in code.
cd "$root/java/src"
mapfile -t java < <(find . -name '*.java' | sort)
runners=()
for j in "${java[@]}"; do
	case " $JAVA_LIBRARY " in *" $(basename "$j" .java) "*) continue ;; esac
	grep -q 'static void main(String' "$j" && runners+=("$j")
done
[ "${#runners[@]}" -gt 0 ] || fail "no Java runner found under java/src"
code() { # the file without comments and string literals
	sed -E -e 's://.*$::' -e 's/"([^"\\]|\\.)*"/""/g' "$1" |
		awk '{ while (1) { if (c) { i = index($0, "*/"); if (!i) { $0 = ""; break } $0 = substr($0, i + 2); c = 0 }
		       i = index($0, "/*"); if (!i) break; printf "%s", substr($0, 1, i - 1); $0 = substr($0, i + 2); c = 1 }
		       print }'
}
for r in "${runners[@]}"; do
	cls=$(basename "$r" .java)
	for j in "${java[@]}"; do
		[ "$j" = "$r" ] && continue
		# grep reads to the end (no -q): an early exit would fail the pipe
		code "$j" | grep -E "(^|[^A-Za-z0-9_])$cls([^A-Za-z0-9_]|$)" >/dev/null || continue
		case "$(basename "$j" .java):$cls" in
		Embedded:Match) ;;
		*) fail "java: $(basename "$j" .java) uses $cls, a runner" ;;
		esac
	done
done

[ "$bad" = 0 ] && echo "commands are independent: $covered commands in ${#commands[@]} files, ${#runners[@]} Java runners"
exit "$bad"
