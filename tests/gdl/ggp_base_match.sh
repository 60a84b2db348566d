#!/usr/bin/env bash
# A match through ggp-base's own game server (issue 44): `microsynth gdl serve` against
# ggp-base's sample random player on tictactoe (start clock 10 s, play clock 2 s). Passes
# when the match completes with no illegal move, timeout or connection error of either
# player (ggp-base's server reports each). Needs a ggp-base build, which this project does
# not make: MICROSYNTH_GGP_BASE is its class path (its compiled classes and lib/ jars,
# ':'-separated); without it the test skips.
# usage: ggp_base_match.sh MICROSYNTH GgpBaseMatch.java KIF WORKDIR
set -euo pipefail
if [ -z "${MICROSYNTH_GGP_BASE:-}" ]; then
	echo "skipped: MICROSYNTH_GGP_BASE (the class path of a ggp-base build) is not set"
	exit 0
fi
if [ ! -f "$3" ]; then
	[ -n "${CI:-}" ] && { echo "missing $3 under CI"; exit 1; }
	echo "skipped: $3 absent (../shared)"
	exit 0
fi
exe=$1 src=$2 kif=$3 dir=$4
mkdir -p "$dir/classes"
javac --release 8 -nowarn -encoding UTF-8 -d "$dir/classes" -cp "$MICROSYNTH_GGP_BASE" "$src"
"$exe" gdl serve --port 0 -v >"$dir/serve.out" 2>"$dir/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$dir/serve.out" ] && break; sleep 0.1; done
port=$(sed -n '1s|.*:\([0-9]*\)/$|\1|p' "$dir/serve.out")
out=$(java -cp "$dir/classes:$MICROSYNTH_GGP_BASE" GgpBaseMatch "$kif" 10 2 "127.0.0.1:$port" random)
kill "$pid"
wait "$pid" || true
trap - EXIT
echo "$out" | grep -v '^moves '
cat "$dir/serve.err" "$dir/serve.out"
echo "$out" | grep -q '^players=.* bad_events=0 ' && grep -q ' late=0$' "$dir/serve.out"
