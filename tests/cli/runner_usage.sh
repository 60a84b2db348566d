#!/usr/bin/env bash
# The Java-runner commands (tools/microrts/cmd_tournament.c) pass the options of their
# lists on unchanged; each command's usage must name every one of them.
#   runner_usage.sh MICROSYNTH CMD_TOURNAMENT_C
set -euo pipefail
exe=$1 src=$2
bad=0
# options(FIRST_LINE_RE, LAST_LINE_RE): the "--..." literals between two lines of the source
options() { awk -v a="$1" -v b="$2" '$0 ~ a { on = 1 } on { print } on && $0 ~ b { exit }' "$src" |
	grep -o '"--[a-z0-9-]*"' | tr -d '"' | sort -u; }
check() { # CMD, then its options
	local cmd=$1 usage n=0
	shift
	usage=$("$exe" "$cmd" --help 2>&1)
	for o in "$@"; do
		n=$((n + 1))
		grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" <<<"$usage" || { echo "$cmd: usage does not name $o"; bad=1; }
	done
	[ "$n" -gt 3 ] || { echo "$cmd: found only $n options in $src"; bad=1; }
	echo "$cmd: $n options"
}
# the harness settings tournament, evaluate and league take besides their own
shared=$(options '^static const char \*const shared_valued' '^static const char \*const shared_flags.*NULL };')
own() { options "^int cmd_$1\\(" 'run_java_cmd\('; }
# shellcheck disable=SC2046,SC2086
check tournament $(own tournament) $shared
# shellcheck disable=SC2046
check watch $(own watch)
# shellcheck disable=SC2046,SC2086
check evaluate $(own evaluate) $shared
# shellcheck disable=SC2046,SC2086
check league $(own league) $shared
[ "$bad" = 0 ] && echo "every option passed on is in its command's usage"
