#!/usr/bin/env bash
# The competition bot's per-map programs (issue 16): synthesis against the
# field, and the program index lines that make the drop-in bot play them.
#
#   tools/competition.sh synth [--time T] [--native-time T] [--seed S] [--threads K]
#                              [--max-cycles N] [--edition E] [--opponent-seeds K]
#                              [--initial FILE] [--out DIR] MAP...
#       per map, simulated annealing against the field (CoacAI, mayari and
#       the four rushes, both seats): with --native-time, first that long
#       against the bots we have natively (CoacAI and the rushes: about 15
#       times more evaluations per second), then --time against the whole
#       field (mayari in the official engine) starting from that program;
#       writes DIR/NAME.ms (+ .csv, .ckpt, .log; NAME.native.* of stage 1);
#       DIR defaults to build/competition. An existing NAME.ms is kept
#       (delete it to redo the map). Competition settings by default: the
#       current official edition of the scripted bots (--edition 2023) and
#       the competition's game length (5000 cycles on the 2025 maps, else
#       by map size as synth's default); the program header records both.
#       --opponent-seeds K: CoacAI and mayari draw as the jars do, K seeds.
#   tools/competition.sh index PROGRAM...
#       prints the index lines for programs/microrts/*.ms files: m: key,
#       near line (map features) and trained line of the map named in each
#       program's '# maps:' header (t: keys are left to the editor: several
#       maps share one terrain), and its made-for line (edition and game
#       length, from the header; `microsynth evaluate` warns when its harness
#       is of another edition).
#
# BUILD_DIR (default build) holds the microsynth binary and jars.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
exe="$build/bin/microsynth"
harness=${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness}
field=(CoacAI mayari WorkerRush LightRush HeavyRush RangedRush)
native_field=(CoacAI WorkerRush LightRush HeavyRush RangedRush)
# the 2025 competition's maps (Evaluate.MAPS_2025), played for 5000 cycles
maps_2025=" basesWorkers16x16A TwoBasesBarracks16x16 basesWorkers16x16I basesWorkers16x16 basesWorkers16x16D
 EightBasesWorkers16x16 basesWorkers16x16C melee16x16Mixed8 basesWorkers16x16L melee16x16Mixed12 "

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
case "$cmd" in
synth)
	time=10m native_time="" seed=1 threads=2 out="$build/competition" initial="" cycles="" edition=2023
	opp_seeds=1
	maps=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--time) time=$2; shift 2 ;;
		--native-time) native_time=$2; shift 2 ;;
		--seed) seed=$2; shift 2 ;;
		--threads) threads=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		--initial) initial=$2; shift 2 ;;
		--max-cycles) cycles=$2; shift 2 ;;
		--edition) edition=$2; shift 2 ;;
		--opponent-seeds) opp_seeds=$2; shift 2 ;;
		-*) echo "competition.sh: unknown option $1" >&2; usage ;;
		*) maps+=("$1"); shift ;;
		esac
	done
	[ ${#maps[@]} -gt 0 ] || usage
	mkdir -p "$out"
	have=$("$exe" harness 2>/dev/null | sed -n 's/.* edition=\([0-9]*\).*/\1/p' | tail -n 1)
	if [ "$have" != "$edition" ]; then
		echo "competition: warning: the harness ($harness) is edition ${have:-unknown}, the programs are made" \
			"for $edition (set MICROSYNTH_HARNESS to a harness of that edition for harness_psi)" >&2
	fi
	opp=()
	for f in "${field[@]}"; do opp+=(--opponent "$f"); done
	for m in "${maps[@]}"; do
		name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
		if [ -f "$out/$name.ms" ]; then
			echo "competition: $name.ms exists, skipped" >&2
			continue
		fi
		extra=(--edition "$edition" --opponent-seeds "$opp_seeds")
		if [ -n "$cycles" ]; then
			extra+=(--max-cycles "$cycles")
		elif [[ "$maps_2025" == *" $(basename "$m" .xml) "* ]]; then
			extra+=(--max-cycles 5000)
		fi
		start=$initial
		if [ -n "$native_time" ]; then
			nopp=()
			for f in "${native_field[@]}"; do nopp+=(--opponent "$f"); done
			first=()
			[ -n "$start" ] && first+=(--initial "$start")
			echo "competition: $m against the native field ($native_time)" >&2
			if "$exe" synth --game microrts --map "$m" "${nopp[@]}" --algo sa --time "$native_time" \
				--seed "$seed" --threads "$threads" "${extra[@]}" "${first[@]}" --no-harness \
				-o "$out/$name.native.ms" --csv "$out/$name.native.csv" --no-progress \
				>"$out/$name.native.log" 2>&1; then
				start="$out/$name.native.ms"
			else
				echo "competition: stage 1 of $m failed, see $out/$name.native.log" >&2
			fi
		fi
		[ -n "$start" ] && extra+=(--initial "$start")
		echo "competition: $m ($time, seed $seed)" >&2
		"$exe" synth --game microrts --map "$m" "${opp[@]}" --algo sa --time "$time" --seed "$seed" \
			--threads "$threads" "${extra[@]}" -o "$out/$name.ms" --csv "$out/$name.csv" \
			--checkpoint "$out/$name.ckpt" --no-progress >"$out/$name.log" 2>&1 || {
			echo "competition: $m failed, see $out/$name.log" >&2
			continue
		}
		tail -n 1 "$out/$name.log"
	done
	;;
index)
	[ $# -gt 0 ] || usage
	cp="$harness/microrts.jar:$build/java/microsynth.jar"
	for p in "$@"; do
		map=$(sed -n 's/^# maps: \([^ ]*\) .*/\1/p' "$p" | head -n 1)
		[ -n "$map" ] || { echo "competition.sh: $p has no '# maps:' header" >&2; exit 2; }
		file=$map
		[ -f "$file" ] || file="$harness/$map"
		[ -f "$file" ] || file="$harness/maps/$map"
		[ -f "$file" ] || { echo "competition.sh: map $map of $p not found" >&2; exit 2; }
		rel=${p#programs/}
		edition=$(sed -n 's/^# algorithm:.*[ ;]edition: \([0-9]*\).*/\1/p' "$p" | head -n 1)
		cycles=$(sed -n 's/^# maps: [^ ]* (\([0-9]*\) cycles).*/\1/p' "$p" | head -n 1)
		[ -n "$edition" ] && [ -n "$cycles" ] ||
			{ echo "competition.sh: $p records no edition or game length in its header" >&2; exit 2; }
		java -cp "$cp" ai.microsynth.MapFingerprint "$file" | while read -r full terrain near rest; do
			feats=$(echo "$rest" | awk '{print $1, $2, $3, $4, $5, $6, $7}')
			short=${map#maps/}
			echo "$full program:$rel   # $short"
			echo "near $feats program:$rel   # $short"
			echo "trained $short"
			echo "made-for program:$rel edition $edition cycles $cycles   # $short"
		done
	done
	;;
*) usage ;;
esac
