#!/usr/bin/env bash
# The competition bot's per-map programs (issue 16): synthesis against the
# field, and the program index lines that make the drop-in bot play them.
#
#   tools/competition.sh synth [--time T] [--stochastic-time T] [--seed S] [--threads K]
#                              [--max-cycles N] [--edition E] [--opponent-seeds K]
#                              [--initial FILE] [--out DIR] MAP...
#       per map, simulated annealing against the whole field natively (CoacAI,
#       mayari and the four rushes, both seats), with the competition's
#       settings: the current official edition (2023) and its game length
#       (5000 cycles on the 2025 maps, by map size elsewhere). Stage 1 (--time,
#       default 5m) plays the reproducible stand-ins; stage 2
#       (--stochastic-time, default none) starts from stage 1 and plays CoacAI
#       and mayari drawing as the jars do, --opponent-seeds seeds per seat
#       (default 4). Writes DIR/NAME.ms (+ .csv, .ckpt, .log); DIR defaults to
#       build/competition. An existing NAME.ms is kept (delete it to redo the
#       map); an interrupted run resumes from its checkpoint.
#   tools/competition.sh switch [--cycle K] [--time T] [--specialist-time T]
#                               [--specialist-initial FILE] [--specialist-seeds K]
#                               [--opening mayari|field] [--out DIR] MAP...
#       per map, an opponent switch (docs/switch.md) around DIR/NAME.ms of
#       `synth`: a mayari specialist (stochastic mayari, K seeds per seat,
#       default 16: with 4 the specialists fit those seeds and lose in the
#       official harness) plays
#       the opening and the whole game against mayari; after cycle K (150) the
#       rest of the field meets a program synthesized after that opening
#       (--time, default 100 s, from NAME.ms); CoacAI and WorkerRush, when
#       that program still loses to them, get a program of their own
#       (--specialist-time). The specialist searches
#       60 s (--specialist-time), from FILE if given (another map's
#       specialist). --opening field keeps NAME.ms whole for every opponent
#       but mayari, and plays it before cycle K too: the mayari specialist is
#       then synthesized after that opening (from FILE, else from NAME.ms);
#       for maps whose field program already beats CoacAI. Writes
#       DIR/NAME.switch.
#   tools/competition.sh case [--time T] [--seeds K] [--seed S] [--threads K]
#                             [--initial FILE] [--out DIR] SWITCH MAP BOT
#       a new case program for native BOT in an existing switch, synthesized
#       after the switch's opening (--time, default 10m; CoacAI and mayari
#       as the jars draw, --seeds per seat, default 16) from FILE, else from
#       BOT's case program; writes DIR/NAME.switch with every other case
#       kept and prints its native check. Compare old and new in the
#       official harness (`microsynth evaluate --ai microsynth:switch:FILE`)
#       before replacing the shipped switch.
#   tools/competition.sh index PROGRAM...
#       prints the index lines for programs/microrts/*.ms files: m: key,
#       near line (map features) and trained line of the map named in each
#       program's '# maps:' header (t: keys are left to the editor: several
#       maps share one terrain), and its made-for line (edition and game
#       length, from the header; `microsynth evaluate` warns when its harness
#       is of another edition).
#
# BUILD_DIR (default build) holds the microsynth binary and jars. MICROSYNTH_LAUNCH (e.g.
# "mpirun -np 64") runs every synthesis under it: rank 0 searches, the other ranks evaluate
# (docs/distributed.md); the time budgets then buy more evaluations.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
exe="$build/bin/microsynth"
read -ra launch <<<"${MICROSYNTH_LAUNCH:-}"
synth=("${launch[@]}" "$exe" synth)
harness=${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness}
field=(CoacAI mayari WorkerRush LightRush HeavyRush RangedRush)
# The 2025 competition's maps play 5000 cycles; elsewhere the length goes by size.
# (The C table's 2025 set, games/microrts/match/competition.c; a unit test checks this copy.)
maps_2025=" basesWorkers16x16A TwoBasesBarracks16x16 basesWorkers16x16I basesWorkers16x16 basesWorkers16x16D
 EightBasesWorkers16x16 basesWorkers16x16C melee16x16Mixed8 basesWorkers16x16L melee16x16Mixed12 "
game_length() {
	local name
	name=$(basename "$1" .xml)
	case " $(echo $maps_2025) " in *" $name "*) echo 5000; return ;; esac
	echo 0 # synth's own rule: by map size
}

usage() { sed -n '2,/^# BUILD_DIR/p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
case "$cmd" in
synth)
	time=5m stime="" seed=1 threads=2 out="$build/competition" initial="" cycles="" edition=2023 oseeds=4
	maps=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--time) time=$2; shift 2 ;;
		--stochastic-time) stime=$2; shift 2 ;;
		--seed) seed=$2; shift 2 ;;
		--threads) threads=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		--initial) initial=$2; shift 2 ;;
		--max-cycles) cycles=$2; shift 2 ;;
		--edition) edition=$2; shift 2 ;;
		--opponent-seeds) oseeds=$2; shift 2 ;;
		-*) echo "competition.sh: unknown option $1" >&2; usage ;;
		*) maps+=("$1"); shift ;;
		esac
	done
	[ ${#maps[@]} -gt 0 ] || usage
	mkdir -p "$out"
	opp=()
	for f in "${field[@]}"; do opp+=(--opponent "$f"); done
	for m in "${maps[@]}"; do
		name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
		if [ -f "$out/$name.ms" ]; then
			echo "competition: $name.ms exists, skipped" >&2
			continue
		fi
		len=$cycles
		[ -n "$len" ] || len=$(game_length "$m")
		extra=(--edition "$edition" --tiebreak length)
		[ "$len" = 0 ] || extra+=(--max-cycles "$len")
		start=$initial
		stage=("$out/$name" "")
		[ -n "$stime" ] && stage=("$out/$name.stage1" "$out/$name")
		for k in 0 1; do
			dst=${stage[$k]}
			[ -n "$dst" ] || continue
			[ -f "$dst.ms" ] && { start="$dst.ms"; continue; }
			first=() res=() t=$time
			[ -n "$start" ] && first+=(--initial "$start")
			[ -f "$dst.ckpt" ] && res+=(--resume)
			[ "$k" = 1 ] && { first+=(--opponent-seeds "$oseeds"); t=$stime; }
			echo "competition: $m stage $((k + 1)) ($t, seed $seed, ${len/#0/size-based} cycles, edition $edition)" >&2
			"${synth[@]}" --game microrts --map "$m" "${opp[@]}" --algo sa --time "$t" --seed "$seed" \
				--threads "$threads" "${extra[@]}" "${first[@]}" "${res[@]}" --no-harness -o "$dst.ms" \
				--csv "$dst.csv" --checkpoint "$dst.ckpt" --no-progress >"$dst.log" 2>&1 || {
				echo "competition: $m failed, see $dst.log" >&2
				continue 2
			}
			grep '^psi=' "$dst.log" | tail -n 1
			grep '^microsynth: MPI: ' "$dst.log" >&2 || true
			start="$dst.ms"
		done
	done
	;;
switch)
	cycle=150 time=100 stime=60 out="$build/competition" seed=1 threads=2 sinit=() opening=mayari sseeds=16
	maps=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--cycle) cycle=$2; shift 2 ;;
		--time) time=$2; shift 2 ;;
		--specialist-time) stime=$2; shift 2 ;;
		--specialist-initial) sinit=(--initial "$2"); shift 2 ;;
		--specialist-seeds) sseeds=$2; shift 2 ;;
		--opening)
			case "$2" in mayari | field) opening=$2 ;; *) echo "competition.sh: --opening mayari|field" >&2; usage ;; esac
			shift 2 ;;
		--out) out=$2; shift 2 ;;
		-*) echo "competition.sh: unknown option $1" >&2; usage ;;
		*) maps+=("$1"); shift ;;
		esac
	done
	[ ${#maps[@]} -gt 0 ] || usage
	for m in "${maps[@]}"; do
		name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
		base="$out/$name.ms"
		[ -f "$base" ] || { echo "competition: no $base (run synth first)" >&2; continue; }
		[ -f "$out/$name.switch" ] && { echo "competition: $name.switch exists, skipped" >&2; continue; }
		len=$(game_length "$m")
		common=(--algo sa --seed "$seed" --threads "$threads" --tiebreak length --edition 2023 --no-harness
			--no-progress)
		lenopt=()
		[ "$len" = 0 ] || lenopt=(--max-cycles "$len")
		common+=("${lenopt[@]}")
		spec="$out/$name.mayari.ms" rest="$out/$name.rest.ms"
		if [ "$opening" = field ]; then
			[ ${#sinit[@]} -gt 0 ] || sinit=(--initial "$base")
			[ -f "$spec" ] || "${synth[@]}" --game microrts --map "$m" --opponent mayari --opponent-seeds "$sseeds" \
				--time "$stime" "${common[@]}" --prefix "$base" --switch-cycle "$cycle" "${sinit[@]}" \
				-o "$spec" >"$out/$name.mayari.log" 2>&1 ||
				{ echo "competition: see $out/$name.mayari.log" >&2; continue; }
			cases=()
			for f in "${field[@]}"; do [ "$f" = mayari ] || cases+=(--case "$f=$base"); done
			"$exe" switch build --map "$m" --cycle "$cycle" --radius 2.5 --before "$base" --default "$base" \
				--case "mayari=$spec" "${cases[@]}" --edition 2023 "${lenopt[@]}" -o "$out/$name.switch" \
				>"$out/$name.switch.log"
			tail -n 1 "$out/$name.switch.log"
			continue
		fi
		[ -f "$spec" ] || "${synth[@]}" --game microrts --map "$m" --opponent mayari --opponent-seeds "$sseeds" \
			--time "$stime" "${common[@]}" "${sinit[@]}" -o "$spec" >"$out/$name.mayari.log" 2>&1 ||
			{ echo "competition: see $out/$name.mayari.log" >&2; continue; }
		ropp=()
		for f in "${field[@]}"; do [ "$f" = mayari ] || ropp+=(--opponent "$f"); done
		[ -f "$rest" ] || "${synth[@]}" --game microrts --map "$m" "${ropp[@]}" --time "$time" "${common[@]}" \
			--prefix "$spec" --switch-cycle "$cycle" --initial "$base" -o "$rest" >"$out/$name.rest.log" 2>&1 ||
			{ echo "competition: see $out/$name.rest.log" >&2; continue; }
		build() {
			"$exe" switch build --map "$m" --cycle "$cycle" --radius 2.5 --before "$spec" --default "$rest" \
				--case "mayari=$spec" "$@" --edition 2023 "${lenopt[@]}" -o "$out/$name.switch" \
				>"$out/$name.switch.log"
		}
		build --case "CoacAI=$rest" --case "WorkerRush=$rest" --case "LightRush=$rest" \
			--case "HeavyRush=$rest" --case "RangedRush=$rest"
		# CoacAI and WorkerRush can be told apart at the switch: one that still
		# beats the rest's program natively gets a program of its own
		own=()
		for f in CoacAI WorkerRush; do
			prog=$rest
			if grep "^check $f seat" "$out/$name.switch.log" | grep -qv "seat 0: .*winner=0 \|seat 1: .*winner=1 "; then
				prog="$out/$name.$f.ms" seeds=()
				[ "$f" = CoacAI ] && seeds=(--opponent-seeds "$sseeds")
				[ -f "$prog" ] || "${synth[@]}" --game microrts --map "$m" --opponent "$f" "${seeds[@]}" \
					--time "$stime" "${common[@]}" --prefix "$spec" --switch-cycle "$cycle" --initial "$rest" \
					-o "$prog" >"$out/$name.$f.log" 2>&1 || { echo "competition: see $out/$name.$f.log" >&2; prog=$rest; }
			fi
			own+=(--case "$f=$prog")
		done
		build "${own[@]}" --case "LightRush=$rest" --case "HeavyRush=$rest" --case "RangedRush=$rest"
		tail -n 1 "$out/$name.switch.log"
	done
	;;
case)
	time=10m seeds=16 seed=1 threads=2 out="$build/competition" initial=""
	args=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--time) time=$2; shift 2 ;;
		--seeds) seeds=$2; shift 2 ;;
		--seed) seed=$2; shift 2 ;;
		--threads) threads=$2; shift 2 ;;
		--initial) initial=$2; shift 2 ;;
		--out) out=$2; shift 2 ;;
		-*) echo "competition.sh: unknown option $1" >&2; usage ;;
		*) args+=("$1"); shift ;;
		esac
	done
	[ ${#args[@]} -eq 3 ] || usage
	sw=${args[0]} m=${args[1]} bot=${args[2]}
	[ -f "$sw" ] || { echo "competition.sh: no switch $sw" >&2; exit 2; }
	name=$(basename "$m" .xml | tr -c 'A-Za-z0-9_.\n' '_')
	work="$out/$name.case"
	cycle=$(sed -n 's/^cycle \([0-9]*\).*/\1/p' "$sw" | head -n 1)
	radius=$(sed -n 's/^radius \([0-9.]*\).*/\1/p' "$sw" | head -n 1)
	before=$(sed -n 's/^before \([^ ]*\).*/\1/p' "$sw" | head -n 1)
	default=$(sed -n 's/^default \([^ ]*\).*/\1/p' "$sw" | head -n 1)
	[ -n "$cycle" ] && [ -n "$before" ] || { echo "competition.sh: $sw has no cycle or before line" >&2; exit 2; }
	declare -A prog=()
	bots=()
	while read -r _ b _ rest; do
		[ -n "${prog[$b]:-}" ] && continue
		bots+=("$b")
		prog[$b]="$work/${rest##* }.ms"
	done < <(grep '^case ' "$sw")
	[ -n "${prog[$bot]:-}" ] || { echo "competition.sh: $sw has no case for $bot" >&2; exit 2; }
	rm -rf "$work"
	mkdir -p "$work"
	# the switch's programs, one file each (program NAME ... end)
	awk -v d="$work" '/^program /{f=d "/" $2 ".ms"; inp=1; next} inp && /^end$/{inp=0; close(f); next}
		inp{print > f}' "$sw"
	len=$(game_length "$m")
	lenopt=()
	[ "$len" = 0 ] || lenopt=(--max-cycles "$len")
	seedopt=()
	case "$bot" in CoacAI | mayari) seedopt=(--opponent-seeds "$seeds") ;; esac
	[ -n "$initial" ] || initial=${prog[$bot]}
	new="$work/new-$bot.ms"
	"${synth[@]}" --game microrts --map "$m" --opponent "$bot" "${seedopt[@]}" --time "$time" --algo sa \
		--seed "$seed" --threads "$threads" --tiebreak length --edition 2023 --no-harness --no-progress \
		"${lenopt[@]}" --prefix "$work/$before.ms" --switch-cycle "$cycle" --initial "$initial" -o "$new" \
		>"$work/synth.log" 2>&1 || { echo "competition: see $work/synth.log" >&2; exit 1; }
	# the summary line; under MICROSYNTH_LAUNCH rank 0's account of the ranks follows it, on stderr here
	grep '^psi=' "$work/synth.log" | tail -n 1
	grep '^microsynth: MPI: ' "$work/synth.log" >&2 || true
	prog[$bot]=$new
	# equal programs under one file name: switch build counts a collision
	# only between cases that play different programs
	cases=() seen=()
	for b in "${bots[@]}"; do
		f=${prog[$b]}
		for g in "${seen[@]}"; do cmp -s "$f" "$g" && { f=$g; break; }; done
		[ "$f" = "${prog[$b]}" ] && seen+=("$f")
		cases+=(--case "$b=$f")
	done
	"$exe" switch build --map "$m" --cycle "$cycle" ${radius:+--radius "$radius"} --before "$work/$before.ms" \
		--default "$work/${default:-$before}.ms" "${cases[@]}" --edition 2023 "${lenopt[@]}" \
		-o "$out/$name.switch" >"$work/switch.log" ||
		grep '^collision' "$work/switch.log" >&2 || true
	tail -n 1 "$work/switch.log"
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
