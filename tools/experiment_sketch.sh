#!/usr/bin/env bash
# The sketch-learning paper's MicroRTS experiment (Medeiros, Aleixo & Lelis, AAAI 2022, Figure 3; issue
# 45): on its four maps against CoacAI (native, in our engine), the best program's win rate over time of
#   baseline  SA on Psi alone (--tiebreak none), the paper's Baseline;
#   O         Sketch-SA(O): SA on Psi, ties broken by the observation score O (--tiebreak o);
#   A         Sketch-SA(A): SA on Psi, ties broken by the action score A (--score A --tiebreak a);
# the data set L being the oracle's (RR: RangedRush) two matches, one per seat, against CoacAI
# (--c-opponent CoacAI). The paper's MicroRTS setup has no separate sketch phase (its evaluation is Psi
# with ties broken by C), so the searches are `--algo sa` with that tie-break, not our two-phase
# `--algo sketch-sa` (Can't Stop's form: 5 x 10 passes on C first).
# Writes per run TAG.csv/.ms/.out, then runs.csv, table.md (per map and method: final win rate mean and
# std, time to the first program beating CoacAI in both seats, evaluations per second) and one SVG per
# map (`synth plot --group`: mean and +-1 std band per method) into the output directory.
#
#   tools/experiment_sketch.sh [-b MICROSYNTH] [-d OUTDIR] [-t SECONDS] [-s "SEEDS"] [-m "MAPS"]
#                              [-a "METHODS"] [-o ORACLE] [-u UTT] [-j THREADS]
#
# Defaults: 100 s a run, seeds "1 2 3", the four maps, methods "baseline O A", oracle RangedRush (the
# paper's RR; A3N is not native; CoacAI gives the self-play data set), unit type table 1 (the reference
# code's `new UnitTypeTable()`, which the paper's runs used; docs/microrts-synthesis.md; -u 2 is the
# competitions'), 1 thread. The paper ran 10 runs of hours each: -t 21600 -s "1 2 3 4 5 6 7 8 9 10" is
# its length. Seeds are the outer loop, so a grid cut short still has every (map, method) at the same
# number of seeds, give or take one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/../build/bin/microsynth"
out="$here/../build/experiment-sketch"
budget=100
seeds="1 2 3"
methods="baseline O A"
oracle=RangedRush
utt=1
threads=1
shared=
for d in "$here/../../shared/data/microrts/maps" "$here/../../../shared/data/microrts/maps"; do
	[ -f "$d/basesWorkers32x32A.xml" ] && shared=$(cd "$d" && pwd) && break
done
maps="16x16/TwoBasesBarracks16x16.xml 24x24/basesWorkers24x24.xml ${shared:-.}/basesWorkers32x32A.xml BroodWar/(4)BloodBath.scmB.xml"
while getopts "b:d:t:s:m:a:o:u:j:" o; do
	case $o in
	b) bin=$OPTARG ;;
	d) out=$OPTARG ;;
	t) budget=$OPTARG ;;
	s) seeds=$OPTARG ;;
	m) maps=$OPTARG ;;
	a) methods=$OPTARG ;;
	o) oracle=$OPTARG ;;
	u) utt=$OPTARG ;;
	j) threads=$OPTARG ;;
	*) echo "usage: $0 [-b MICROSYNTH] [-d OUTDIR] [-t SECONDS] [-s SEEDS] [-m MAPS] [-a METHODS] [-o ORACLE] [-u UTT] [-j THREADS]" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
echo "map,method,seed,first_win_s,final_psi,evals,seconds" > "$out/runs.csv"
for seed in $seeds; do
	for map in $maps; do
		name=$(basename "$map" .xml)
		for m in $methods; do
			tag="$name-$m-$seed"
			args=(synth --game microrts --map "$map" --opponent CoacAI --algo sa --seed "$seed" --time "$budget"
				--utt "$utt" --threads "$threads" -o "$out/$tag.ms" --csv "$out/$tag.csv" --no-progress --no-harness)
			case $m in
			baseline) args+=(--tiebreak none) ;;
			O) args+=(--oracle "$oracle" --c-opponent CoacAI --tiebreak o) ;;
			A) args+=(--oracle "$oracle" --c-opponent CoacAI --score A --tiebreak a) ;;
			*) echo "unknown method $m (baseline, O, A)" >&2; exit 2 ;;
			esac
			rm -f "$out/$tag.csv"
			"$bin" "${args[@]}" > "$out/$tag.out" 2> "$out/$tag.err" || { echo "$tag: failed (see $tag.err)" >&2; continue; }
			line=$(tail -n 1 "$out/$tag.out")
			psi=$(sed -nE 's/^psi=([0-9.]+) .*/\1/p' <<< "$line")
			evals=$(sed -nE 's/.* evals=([0-9]+).*/\1/p' <<< "$line")
			secs=$(sed -nE 's/.* seconds=([0-9.]+).*/\1/p' <<< "$line")
			# the first improvement whose Psi reaches 1: both seats won (tie-breaks only add below 1)
			first=$(awk -F, 'NR > 1 && $2 >= 1 { print $1; exit }' "$out/$tag.csv")
			echo "$name,$m,$seed,${first:--},$psi,$evals,$secs" >> "$out/runs.csv"
			echo "$tag: first win ${first:-none} s, psi $psi, evals $evals in $secs s"
		done
	done
done

# Per map and method: final Psi mean and std (population, as the plots' bands), the first wins (mean
# time over the runs that had one, and how many did), evaluations per second.
awk -F, 'NR > 1 {
	k = $1 "|" $2; if (!(k in n)) order[++nk] = k
	n[k]++; s[k] += $5; s2[k] += $5 * $5; ev[k] += $6; sec[k] += $7
	if ($4 != "-") { nw[k]++; tw[k] += $4 }
}
END {
	print "| map | method | runs | final win rate (mean +- std) | first win in both seats (mean s; runs) | evaluations/s |"
	print "|---|---|---|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, f, "|"); m = s[k] / n[k]; v = s2[k] / n[k] - m * m
		w = nw[k] ? sprintf("%.1f (%d of %d)", tw[k] / nw[k], nw[k], n[k]) : "none in budget"
		printf "| %s | %s | %d | %.2f +- %.2f | %s | %.0f |\n", f[1], f[2], n[k], m, sqrt(v > 0 ? v : 0), w, ev[k] / sec[k]
	}
}' "$out/runs.csv" > "$out/table.md"
cat "$out/table.md"

label() { case $1 in baseline) echo "Baseline SA" ;; *) echo "Sketch-SA($1)" ;; esac; }
for map in $maps; do
	name=$(basename "$map" .xml)
	groups=()
	for m in $methods; do
		files=$(ls "$out/$name-$m-"*.csv 2> /dev/null | paste -sd, -)
		[ -n "$files" ] && groups+=(--group "$(label "$m")=$files")
	done
	[ ${#groups[@]} -gt 0 ] || continue
	"$bin" synth plot "${groups[@]}" --until "$budget" --step 0.25 \
		--title "$name vs CoacAI, table $utt (L: $oracle vs CoacAI)" -o "$out/avo-$name.svg"
done
