#!/usr/bin/env bash
# `microsynth package`, then the packaged jar loaded the way a competition
# harness loads bots: dropped into a harness folder's lib/bots, the class
# found by its short name among lib/bots' classes, with no other copy of
# microsynth.jar anywhere on the path (the runners' jar is copied alone).
#
#   package.sh EXE HARNESS_DIR RUNNERS_JAR WORK_DIR
set -eu
exe=$1 harness=$2 runners=$3 work=$4
rm -rf "$work" && mkdir -p "$work/harness/lib/bots" "$work/runners"
"$exe" package -o "$work/pkg" | tee "$work/package.out"
tail -n 1 "$work/package.out" | grep -Eq '^package=.*/microsynth\.jar bytes=[0-9]+ map_keys=[0-9]+ near=[0-9]+ trained=[0-9]+$'
grep -q 'ai.microsynth.MicrosynthAI' "$work/pkg/README.md"
grep -q 'MicrosynthAI(UnitTypeTable utt)' "$work/pkg/README.md"
cmp "$work/pkg/index.txt" <(unzip -p "$work/pkg/microsynth.jar" programs/index.txt)
ln -s "$harness/microrts.jar" "$work/harness/microrts.jar"
ln -s "$harness/maps" "$work/harness/maps"
cp "$harness"/lib/bots/*.jar "$work/harness/lib/bots/"
cp "$work/pkg/microsynth.jar" "$work/harness/lib/bots/"
cp "$runners" "$work/runners/"
unset MICROSYNTH_JAR
out=$(java -Djava.awt.headless=true -cp "$work/runners/$(basename "$runners")" ai.microsynth.harness.Match \
	--harness "$work/harness" --map maps/8x8/basesWorkers8x8A.xml --p0 MicrosynthAI --p1 WorkerRush 2>"$work/err")
echo "$out"
echo "$out" | grep -q 'p0=ai.microsynth.MicrosynthAI(microsynth.jar)'
echo "$out" | grep -q '^result crashed=-1 timedout=-1 gameover=true$'
echo "$out" | tail -n 1 | grep -Eq '^winner=(-1|0|1) cycles=[0-9]+$'
# bad usage: a non-empty folder is refused
if "$exe" package -o "$work/pkg" 2>"$work/err2"; then
	echo "package into a non-empty folder should fail" >&2
	exit 1
fi
grep -q 'not empty' "$work/err2"
echo "package ok"
