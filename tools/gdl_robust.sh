#!/usr/bin/env bash
# Issue 44's robustness sweep: every rule file under DIR (e.g. each .kif of ggp-base's repository history,
# extracted outside this project) is loaded and played with random playouts (`gdl bench --seconds S`)
# under a time and memory bound. Per file a line `STATUS FILE detail`, where STATUS is
#   ok       loaded and played (grounded=1: on the ground network; 0: on the first-order fallback)
#   refused  a clear error, exit 2 (its message is the detail): rules that are not valid GDL or that
#            the reasoner cannot represent within its bounds
#   timeout  no answer within the bound (a hang, or a load slower than the bound)
#   crash    killed by a signal (a bug: report it) or out of the memory bound
# Last line: files= ok= grounded= fallback= refused= timeout= crash=
# usage: tools/gdl_robust.sh DIR [SECONDS_PER_FILE [MEMORY_MB [PLAY_SECONDS]]]  (defaults 120, 4096, 1)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
dir=$1 limit=${2:-120} mem=${3:-4096} play=${4:-1}
exe=${MICROSYNTH:-$root/build/bin/microsynth}
[ -x "$exe" ] || { echo "gdl_robust: no microsynth at $exe (set MICROSYNTH)" >&2; exit 2; }
n=0 ok=0 ground=0 fb=0 refused=0 tout=0 crash=0
while IFS= read -r -d '' kif; do
	n=$((n + 1))
	out=$( (ulimit -v $((mem * 1024)); timeout "$limit" "$exe" gdl bench "$kif" --seconds "$play") 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | grep '^kif=' | tail -1)
	if [ $rc -eq 0 ] && [ -n "$line" ]; then
		ok=$((ok + 1))
		case "$line" in *grounded=1*) ground=$((ground + 1)) ;; *) fb=$((fb + 1)) ;; esac
		echo "ok $kif ${line#kif=$kif }"
	elif [ $rc -eq 124 ]; then
		tout=$((tout + 1)); echo "timeout $kif after ${limit}s"
	elif [ $rc -gt 128 ] || printf '%s' "$out" | grep -q 'out of memory'; then
		crash=$((crash + 1)); echo "crash $kif exit=$rc $(printf '%s' "$out" | tail -1)"
	else
		refused=$((refused + 1)); echo "refused $kif $(printf '%s\n' "$out" | grep -m1 'microsynth gdl' | cut -c1-300)"
	fi
done < <(find "$dir" -name '*.kif' -print0 | sort -z)
echo "files=$n ok=$ok grounded=$ground fallback=$fb refused=$refused timeout=$tout crash=$crash"
