#!/usr/bin/env bash
# Run one command and check what it printed. Used by the ctest tests of
# java/CMakeLists.txt (label "harness").
#
#   check.sh [checks...] -- COMMAND [ARGS...]
#
#   --rc N          expected exit status (default 0)
#   --out RE        some stdout line matches the extended regex RE
#   --err RE        some stderr line matches RE
#   --not RE        no stdout line matches RE
#   --last RE       the last stdout line matches RE (whole line)
#   --timeout S     kill the command after S seconds (default 120)
#   --needs PROG    skip (exit 77) when PROG is not installed; under CI fail
#   --empty-cwd     run the command in a fresh empty temporary directory
#
# Exit 0 when every check holds, 1 otherwise, 77 when skipped.
set -u

rc_want=0
timeout_s=120
empty_cwd=0
checks=()
while [ $# -gt 0 ]; do
	case "$1" in
	--rc) rc_want=$2; shift 2 ;;
	--out|--err|--not|--last) checks+=("$1" "$2"); shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--needs)
		if ! command -v "$2" >/dev/null 2>&1; then
			case "${CI:-}" in ""|0|false|FALSE|no|off) ci= ;; *) ci=1 ;; esac
			if [ -n "$ci" ]; then
				echo "check: '$2' is not installed (required under CI)" >&2
				exit 1
			fi
			echo "check: '$2' is not installed; skipping" >&2
			exit 77
		fi
		shift 2 ;;
	--empty-cwd) empty_cwd=1; shift ;;
	--) shift; break ;;
	*) echo "check: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "check: no command" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="$tmp/stdout"
err="$tmp/stderr"
if [ "$empty_cwd" = 1 ]; then
	mkdir "$tmp/cwd"
	(cd "$tmp/cwd" && timeout -k 5 "$timeout_s" "$@") >"$out" 2>"$err"
else
	timeout -k 5 "$timeout_s" "$@" >"$out" 2>"$err"
fi
rc=$?

echo "--- command: $*"
echo "--- exit status: $rc"
echo "--- stdout:"
cat "$out"
echo "--- stderr (last 40 lines):"
tail -n 40 "$err"
echo "---"

fail=0
if [ "$rc" != "$rc_want" ]; then
	echo "FAIL: exit status $rc, expected $rc_want"
	[ "$rc" = 124 ] && echo "FAIL: (timed out after $timeout_s s)"
	fail=1
fi
set -- "${checks[@]+"${checks[@]}"}"
while [ $# -gt 0 ]; do
	kind=$1 re=$2
	shift 2
	case "$kind" in
	--out) grep -Eq -- "$re" "$out" || { echo "FAIL: no stdout line matches /$re/"; fail=1; } ;;
	--err) grep -Eq -- "$re" "$err" || { echo "FAIL: no stderr line matches /$re/"; fail=1; } ;;
	--not) if grep -Eq -- "$re" "$out"; then echo "FAIL: a stdout line matches /$re/:"; grep -E -- "$re" "$out" | head -5; fail=1; fi ;;
	--last)
		last=$(tail -n 1 "$out")
		printf '%s\n' "$last" | grep -Exq -- "$re" || { echo "FAIL: last stdout line '$last' does not match /$re/"; fail=1; } ;;
	esac
done
[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
