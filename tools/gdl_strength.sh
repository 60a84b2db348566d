#!/usr/bin/env bash
# The GGP strength table (issue 44, docs/gdl.md): MATCHES matches of one game through ggp-base's own
# GameServer between `microsynth gdl serve` and ggp-base's sample Monte-Carlo player (or random), the
# seats alternating, under the same clocks for both. Per match a line; last line:
#   game= player= opponent= start= play= matches= wins= draws= losses= score= ci95= bad_events= late=
# (score: wins + draws/2 over matches; ci95: its Wilson interval; bad_events: illegal moves, timeouts
# and connection errors ggp-base's server saw from either player; late: our answers past a clock).
# Needs a ggp-base build, which this project does not make: MICROSYNTH_GGP_BASE is its class path
# (compiled classes and lib/ jars, ':'-separated).
# usage: tools/gdl_strength.sh KIF MATCHES [START PLAY [OPPONENT [-- SERVE-OPTIONS...]]]
#   defaults: START 10, PLAY 2 (seconds), OPPONENT montecarlo; SERVE-OPTIONS e.g. --player sguct
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
kif=$1 matches=$2 start=${3:-10} play=${4:-2} opp=${5:-montecarlo}
shift $(( $# < 5 ? $# : 5 ))
[ "${1:-}" = "--" ] && shift
[ -n "${MICROSYNTH_GGP_BASE:-}" ] || { echo "gdl_strength: set MICROSYNTH_GGP_BASE to a ggp-base build's class path" >&2; exit 2; }
[ -f "$kif" ] || { echo "gdl_strength: no rule file $kif" >&2; exit 2; }
exe=${MICROSYNTH:-$root/build/bin/microsynth}
[ -x "$exe" ] || { echo "gdl_strength: no microsynth at $exe (set MICROSYNTH)" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/gdl-strength-XXXXXX")
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
mkdir -p "$dir/classes"
javac --release 8 -nowarn -encoding UTF-8 -d "$dir/classes" -cp "$MICROSYNTH_GGP_BASE" "$root/tests/gdl/GgpBaseMatch.java"
"$exe" gdl serve --port 0 "$@" >"$dir/serve.out" 2>"$dir/serve.err" &
pid=$!
for _ in $(seq 100); do [ -s "$dir/serve.out" ] && break; sleep 0.1; done
port=$(sed -n '1s|.*:\([0-9]*\)/$|\1|p' "$dir/serve.out")
[ -n "$port" ] || { cat "$dir/serve.err" >&2; exit 1; }
player=$(printf '%s' "$*" | sed -n 's/.*--player \([a-z]*\).*/\1/p')
wins=0 draws=0 losses=0 bad=0
for i in $(seq 1 "$matches"); do
	# seat alternates: odd matches we are the first role, even the second
	if [ $((i % 2)) -eq 1 ]; then seats="127.0.0.1:$port $opp" me=0; else seats="$opp 127.0.0.1:$port" me=1; fi
	out=$(java -cp "$dir/classes:$MICROSYNTH_GGP_BASE" GgpBaseMatch "$kif" "$start" "$play" $seats | grep -v '^moves ')
	line=$(printf '%s\n' "$out" | grep '^players=' || true)
	goals=$(printf '%s' "$line" | sed -n 's/.*goals=\[\([0-9]*\), \([0-9]*\)\].*/\1 \2/p')
	if [ -z "$goals" ]; then
		echo "match=$i seat=$me broken: $out"
		bad=$((bad + 1)) losses=$((losses + 1))
		continue
	fi
	set -- $goals
	mine=$([ $me -eq 0 ] && echo "$1" || echo "$2") theirs=$([ $me -eq 0 ] && echo "$2" || echo "$1")
	if [ "$mine" -gt "$theirs" ]; then wins=$((wins + 1)); elif [ "$mine" -eq "$theirs" ]; then draws=$((draws + 1)); else losses=$((losses + 1)); fi
	b=$(printf '%s' "$line" | sed -n 's/.* bad_events=\([0-9]*\).*/\1/p')
	bad=$((bad + ${b:-1}))
	echo "match=$i seat=$me ours=$mine theirs=$theirs $(printf '%s' "$line" | sed -n 's/.*\(bad_events=.*\)/\1/p')"
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
late=$(sed -n 's/.* late=\([0-9]*\)$/\1/p' "$dir/serve.out" | tail -1)
awk -v w="$wins" -v d="$draws" -v l="$losses" -v n="$matches" -v bad="$bad" -v late="${late:--}" \
	-v game="$(basename "$kif" .kif)" -v player="${player:-uct}" -v opp="$opp" -v s="$start" -v p="$play" 'BEGIN {
	x = (w + d / 2) / n; z = 1.96; den = 1 + z * z / n
	c = (x + z * z / (2 * n)) / den; h = z * sqrt(x * (1 - x) / n + z * z / (4 * n * n)) / den
	printf "game=%s player=%s opponent=%s start=%s play=%s matches=%d wins=%d draws=%d losses=%d score=%.3f ci95=%.3f-%.3f bad_events=%d late=%s\n",
		game, player, opp, s, p, n, w, d, l, x, c - h, c + h, bad, late }'
