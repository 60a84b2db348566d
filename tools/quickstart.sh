#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs the main job on a small default:
# a MicroRTS strategy synthesized against the four rushes on basesWorkers8x8A
# (simulated annealing, 2,000 evaluations: seconds on 2 cores), simplified with
# a proof that it plays every match of the evaluation alike, cycle by cycle
# (docs/readable-programs.md; the search's own text kept beside it as
# program.ms.raw.ms), printed, then replayed in the official Java harness
# through the drop-in bot; a `simplified:` line gives the program's lines and
# nodes before and after, the last line is
# `psi=X harness_psi=Y evals=N seconds=T faults=F`. Arguments replace the
# default synthesis options (see `microsynth synth --help`), e.g.
#   tools/quickstart.sh --map 8x8/basesWorkers8x8A.xml --opponent CoacAI --algo sa --time 2m --seed 1
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(tools/build.sh)
out="$build/quickstart"
rm -rf "$out"
mkdir -p "$out"
if [ $# -eq 0 ]; then
	set -- --map 8x8/basesWorkers8x8A.xml --opponent WorkerRush --opponent LightRush --opponent HeavyRush \
		--opponent RangedRush --algo sa --evals 2000 --seed 1 --keep-raw
fi
exec "$build/bin/microsynth" synth --game microrts --threads "$(nproc)" -o "$out/program.ms" --no-progress "$@"
