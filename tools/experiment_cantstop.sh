#!/usr/bin/env bash
# The Can't Stop synthesis experiment (issue 7 item 4; spec/cantstop.md 7, 8):
# several seeds of SA, UCT, Sketch-SA(A), Sketch-SA(O) and Sketch-UCT(O), the
# sketch searches with the random and the GA oracle, each budgeted by Psi
# evaluations (reproducible), each final program scored on 10,000 fresh
# matches against GA; prints a table (mean +- sd over seeds) beside the
# paper's Table 1 and the reference's logged results. Each program is
# written simplified, proved on those 10,000 matches (synth's default,
# docs/readable-programs.md), the search's own text beside it (.txt.raw.txt).
#
# Usage: tools/experiment_cantstop.sh [-b MICROSYNTH] [-d OUTDIR] [-e EVALS]
#            [-s "SEEDS"] [-t THREADS] [-c "CONFIGS"] [-D DEADLINE_SECONDS]
#            [--best FILE] [--table-only]
#   -e EVALS     Psi evaluations per run (default 10000)
#   -s SEEDS     seeds (default "1 2 3 4 5 6 7 8 9 10")
#   -c CONFIGS   subset of: sa uct ssa-a-random ssa-a-ga ssa-o-random ssa-o-ga
#                suct-o-random suct-o-ga (default: all eight)
#   -D SECONDS   stop starting runs after this much wall time (default: none);
#                runs go seed by seed, so a cut leaves whole seeds
#   --best FILE  copy the program with the highest final win rate to FILE
#   --table-only print the table from OUTDIR's results without running
# Runs already in OUTDIR/results.txt are not repeated (rerun to continue).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin="$here/../build/bin/microsynth"
outdir="experiment-cantstop"
evals=10000
seeds="1 2 3 4 5 6 7 8 9 10"
threads=2
configs="sa uct ssa-a-random ssa-a-ga ssa-o-random ssa-o-ga suct-o-random suct-o-ga"
deadline=0
best=""
table_only=0

while [ $# -gt 0 ]; do
	case "$1" in
	-b) bin=$2; shift 2 ;;
	-d) outdir=$2; shift 2 ;;
	-e) evals=$2; shift 2 ;;
	-s) seeds=$2; shift 2 ;;
	-t) threads=$2; shift 2 ;;
	-c) configs=$2; shift 2 ;;
	-D) deadline=$2; shift 2 ;;
	--best) best=$2; shift 2 ;;
	--table-only) table_only=1; shift ;;
	-h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "experiment_cantstop.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done

args_of() {
	case "$1" in
	sa) echo "--algo sa" ;;
	uct) echo "--algo uct" ;;
	ssa-a-random) echo "--algo sketch-sa --score A --oracle random" ;;
	ssa-a-ga) echo "--algo sketch-sa --score A --oracle ga" ;;
	ssa-o-random) echo "--algo sketch-sa --score O --oracle random" ;;
	ssa-o-ga) echo "--algo sketch-sa --score O --oracle ga" ;;
	suct-o-random) echo "--algo sketch-uct --score O --oracle random" ;;
	suct-o-ga) echo "--algo sketch-uct --score O --oracle ga" ;;
	*) return 1 ;;
	esac
}
label_of() {
	case "$1" in
	sa) echo "SA" ;; uct) echo "UCT" ;;
	ssa-a-random) echo "Sketch-SA(A), random data" ;; ssa-a-ga) echo "Sketch-SA(A), GA data" ;;
	ssa-o-random) echo "Sketch-SA(O), random data" ;; ssa-o-ga) echo "Sketch-SA(O), GA data" ;;
	suct-o-random) echo "Sketch-UCT(O), random data" ;; suct-o-ga) echo "Sketch-UCT(O), GA data" ;;
	esac
}
# The paper's Table 1 (Sketch-SA, random and GA oracles) and, for the others,
# the reference's own 72-hour logs (spec/cantstop.md 8.2: final logged best,
# a single 1000-match estimate, runs sampled).
paper_of() {
	case "$1" in
	ssa-*) echo "0.507-0.543 (Table 1; 0.491-0.555 with human data)" ;;
	sa) echo "logs: 0.332-0.560 (3 runs)" ;;
	uct) echo "logs: 0.269 (1 run)" ;;
	suct-o-random) echo "logs: 0.185 (1 run)" ;;
	suct-o-ga) echo "logs: - (Sketch-UCT(A) GA: 0.272)" ;;
	esac
}

for c in $configs; do
	args_of "$c" >/dev/null || { echo "experiment_cantstop.sh: unknown configuration '$c'" >&2; exit 2; }
done
mkdir -p "$outdir"
results="$outdir/results.txt"
touch "$results"

if [ "$table_only" = 0 ]; then
	[ -x "$bin" ] || { echo "experiment_cantstop.sh: no microsynth at $bin (build first, or -b)" >&2; exit 2; }
	start=$(date +%s)
	echo "# experiment: evals=$evals seeds=[$seeds] threads=$threads configs=[$configs]" >&2
	for s in $seeds; do
		for c in $configs; do
			if grep -q "^$c $s $evals " "$results"; then
				continue
			fi
			now=$(date +%s)
			if [ "$deadline" != 0 ] && [ $((now - start)) -ge "$deadline" ]; then
				echo "# deadline of $deadline s reached: $c seed $s and later runs not started" >&2
				break 2
			fi
			base="$outdir/$c-s$s-e$evals"
			t0=$(date +%s.%N)
			# shellcheck disable=SC2046
			if ! "$bin" synth --game cantstop $(args_of "$c") --evals "$evals" --seed "$s" \
				--threads "$threads" -o "$base.txt" --keep-raw --csv "$base.csv" --no-progress \
				>"$base.out" 2>"$base.err"; then
				echo "experiment_cantstop.sh: run $c seed $s failed (see $base.err)" >&2
				exit 1
			fi
			t1=$(date +%s.%N)
			line=$(tail -n 1 "$base.out")
			psi=$(sed -n 's/^psi=\([0-9.]*\) .*/\1/p' <<<"$line")
			spsi=$(sed -n 's/.* search_psi=\([0-9.]*\) .*/\1/p' <<<"$line")
			wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
			echo "$c $s $evals $psi $spsi $wall" >>"$results"
			printf '%-14s seed %-3s psi=%s search_psi=%s wall=%ss\n' "$c" "$s" "$psi" "$spsi" "$wall" >&2
		done
	done
fi

# The table: results of this budget only.
printf '\nCan'"'"'t Stop synthesis: final win rate against GA (10,000 fresh matches per program), %s Psi evaluations per run\n' "$evals"
printf '%-28s %5s %17s %7s %7s %9s   %s\n' "configuration" "seeds" "mean +- sd" "min" "max" "wall s" "paper / reference"
for c in $configs; do
	awk -v c="$c" -v e="$evals" -v label="$(label_of "$c")" -v paper="$(paper_of "$c")" '
		$1 == c && $3 == e { n++; x[n] = $4; s += $4; w += $6 }
		END {
			if (n == 0) { printf "%-28s %5d %17s %7s %7s %9s   %s\n", label, 0, "-", "-", "-", "-", paper; exit }
			m = s / n; v = 0; lo = x[1]; hi = x[1]
			for (i = 1; i <= n; i++) { v += (x[i] - m) ^ 2; if (x[i] < lo) lo = x[i]; if (x[i] > hi) hi = x[i] }
			sd = n > 1 ? sqrt(v / (n - 1)) : 0
			printf "%-28s %5d %8.4f +- %.4f %7.4f %7.4f %9.1f   %s\n", label, n, m, sd, lo, hi, w, paper
		}' "$results"
done
bestline=$(awk -v e="$evals" '$3 == e' "$results" | sort -k4,4gr | head -n 1)
if [ -n "$bestline" ]; then
	read -r bc bs be bp _ <<<"$bestline"
	echo "best: $(label_of "$bc") seed $bs: $bp against GA ($outdir/$bc-s$bs-e$be.txt)"
	if [ -n "$best" ]; then
		cp "$outdir/$bc-s$bs-e$be.txt" "$best"
		echo "copied to $best"
	fi
fi
