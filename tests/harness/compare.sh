#!/usr/bin/env bash
# Run two commands and compare the stdout lines that match a regex.
#
#   compare.sh same|differ RE -- COMMAND1... -- COMMAND2...
#
# "same": both commands succeed and their matching lines are equal (and
# non-empty). "differ": both succeed and the matching lines differ.
set -u

mode=$1 re=$2
shift 2
[ "${1:-}" = "--" ] || { echo "compare: expected -- before the first command" >&2; exit 2; }
shift
cmd1=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd1+=("$1"); shift; done
[ $# -gt 0 ] || { echo "compare: expected -- before the second command" >&2; exit 2; }
shift
cmd2=("$@")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeout -k 5 120 "${cmd1[@]}" >"$tmp/o1" 2>"$tmp/e1"; rc1=$?
timeout -k 5 120 "${cmd2[@]}" >"$tmp/o2" 2>"$tmp/e2"; rc2=$?
for i in 1 2; do
	echo "--- run $i stdout:"; cat "$tmp/o$i"
	echo "--- run $i stderr (last 10 lines):"; tail -n 10 "$tmp/e$i"
done
echo "---"
if [ "$rc1" != 0 ] || [ "$rc2" != 0 ]; then
	echo "FAIL: exit statuses $rc1 and $rc2"
	exit 1
fi
a=$(grep -E -- "$re" "$tmp/o1")
b=$(grep -E -- "$re" "$tmp/o2")
if [ -z "$a" ] || [ -z "$b" ]; then
	echo "FAIL: no line matches /$re/"
	exit 1
fi
case "$mode" in
same) [ "$a" = "$b" ] || { echo "FAIL: lines differ: '$a' vs '$b'"; exit 1; } ;;
differ) [ "$a" != "$b" ] || { echo "FAIL: lines are equal: '$a'"; exit 1; } ;;
*) echo "compare: mode must be same or differ" >&2; exit 2 ;;
esac
echo "PASS ($mode)"
