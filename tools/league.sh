#!/usr/bin/env bash
# The dissertation's simulated tournament (section 5.3) with per-map programs
# (issue 15): train each entrant's program on each map, then play them in the
# official harness against the competition bots.
#
#   tools/league.sh train [--time T] [--iterations N] [--seed S] [--opponent AI]...
#                         [--entrants "ibr fp 2l sketch-sa hss-ibr hss-fp"] [--out DIR] MAP...
#       per entrant and map: self-play (ibr, fp, 2l with SA as best
#       response; hss-ibr, hss-fp with HSS) or Sketch-SA, T for each
#       (default 3m, one thread), iteration 0 against --opponent (default
#       CoacAI, played natively); writes DIR/ENTRANT/MAPNAME.ms (+ .csv,
#       .log) and DIR/ENTRANT.index (the program index naming each map's
#       program). DIR defaults to build/league. Existing programs are kept.
#       Programs are written simplified (selfplay's and synth's default,
#       docs/readable-programs.md): each plays its proof's matches as the
#       search's text does.
#   tools/league.sh run [--out DIR] [--games N] MAP...
#       microsynth league over every DIR/*.index (index:FILE entrants,
#       named after the entrant), CoacAI, mayari and the four rushes on the
#       maps, N round robins (default 1: each ordered pair once per map);
#       tables on stdout, DIR/league-*.svg.
#
# BUILD_DIR (default build) holds the microsynth binary and jars.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
exe="$build/bin/microsynth"
harness=${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness}

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

# The file a map name resolves to: as given, in the harness, or in the
# project's shared map folder (what `microsynth` itself searches).
map_file() {
	local m=$1
	for f in "$m" "$harness/$m" "$harness/maps/$m" "${MS_SHARED_DIR:-../shared}/data/microrts/maps/$m"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	echo "league.sh: map $m not found" >&2
	return 2
}

# DIR/ENTRANT.index: one m: line per map that has a program (paths relative
# to the index, as the drop-in bot reads them), LightRush elsewhere.
write_index() {
	local dir=$1 entrant=$2
	shift 2
	local idx="$dir/$entrant.index"
	{
		echo "# $entrant: per-map programs of tools/league.sh train"
		echo "default LightRush"
		for m in "$@"; do
			local name f
			name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
			[ -f "$dir/$entrant/$name.ms" ] || continue
			f=$(map_file "$m")
			java -cp "$harness/microrts.jar:$build/java/microsynth.jar" ai.microsynth.MapFingerprint "$f" |
				while read -r full _; do echo "$full program:$entrant/$name.ms   # $m"; done
		done
	} >"$idx"
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
out="$build/league" time=3m iterations=4 seed=1 games=1
entrants="ibr fp 2l sketch-sa hss-ibr hss-fp"
opponents=()
maps=()
while [ $# -gt 0 ]; do
	case "$1" in
	--time) time=$2; shift 2 ;;
	--iterations) iterations=$2; shift 2 ;;
	--games) games=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--entrants) entrants=$2; shift 2 ;;
	--opponent) opponents+=("$1" "$2"); shift 2 ;;
	-*) echo "league.sh: unknown option $1" >&2; usage ;;
	*) maps+=("$1"); shift ;;
	esac
done
[ ${#maps[@]} -gt 0 ] || usage
[ ${#opponents[@]} -gt 0 ] || opponents=(--opponent CoacAI)

case "$cmd" in
train)
	for e in $entrants; do
		mkdir -p "$out/$e"
		for m in "${maps[@]}"; do
			name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
			p="$out/$e/$name.ms"
			if [ -f "$p" ]; then
				echo "league: $e/$name.ms exists, skipped" >&2
				continue
			fi
			case "$e" in
			ibr | fp | 2l) run=(selfplay --loop "$e" --br sa --iterations "$iterations") ;;
			hss-ibr | hss-fp) run=(selfplay --loop "${e#hss-}" --br hss --iterations "$iterations") ;;
			sketch-sa) run=(synth --algo sketch-sa --oracle CoacAI --sketch-evals 400 --no-harness) ;;
			*) echo "league.sh: unknown entrant $e" >&2; exit 2 ;;
			esac
			echo "league: $e on $m ($time)" >&2
			# names the harness resolves stay names (they go in program headers)
			f=$m
			[ -f "$harness/maps/$m" ] || [ -f "$harness/$m" ] || f=$(map_file "$m")
			"$exe" "${run[@]}" --game microrts --map "$f" "${opponents[@]}" --time "$time" --seed "$seed" \
				--threads 1 -o "$p" --csv "$out/$e/$name.csv" --no-progress >"$out/$e/$name.log" 2>&1 || {
				echo "league: $e on $m failed, see $out/$e/$name.log" >&2
				continue
			}
			tail -n 1 "$out/$e/$name.log"
		done
		write_index "$out" "$e" "${maps[@]}"
	done
	;;
run)
	args=()
	for idx in "$out"/*.index; do
		[ -f "$idx" ] || continue
		e=$(basename "$idx" .index)
		args+=(--ai "index:$idx" --name "$(echo "$e" | tr 'a-z' 'A-Z')")
	done
	[ ${#args[@]} -gt 0 ] || { echo "league.sh: no $out/*.index (run train first)" >&2; exit 2; }
	for b in CoacAI mayari WorkerRush LightRush HeavyRush RangedRush; do args+=(--ai "$b"); done
	for m in "${maps[@]}"; do args+=(--map "$(map_file "$m")"); done
	"$exe" league "${args[@]}" --iterations "$games" --svg "$out/league"
	;;
*) usage ;;
esac
