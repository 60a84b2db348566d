#!/usr/bin/env bash
# The DSL interpreter against the reference interpreter on matches the
# reference plays now (docs/dsl-reference.md): the matches of the committed
# recordings (tests/dsl/refdiff/) on maps up to 16 wide, with programs up to
# 4,000 characters of tokens, are played again by the user's build of the
# reference (LLD's Synthesis2 on LS1.jar) through java/dslref's recorder;
# those against the deterministic rushes must come out byte for byte as
# committed (CoacAI draws from an unseeded generator), and `microsynth
# refdiff` must find every decision of the fresh ones.
#
#   refdiff_fresh.sh EXE RECORDER_JAR CLASSPATH COMMITTED_DIR OUT MAPS_DIR...
#
# The reference is never part of the project: the user builds it and names
# it, as a Java class path, in MICROSYNTH_DSL_REFERENCE when configuring
# (CLASSPATH, from which RECORDER_JAR is built). Without it the test skips
# (exit 77, under CI too). CoacAI plays when the harness's lib/bots/Coac.jar
# is found under a MAPS_DIR's parent. Exit 0 when every decision matches.
set -u

exe=${1:?EXE} jar=${2:?RECORDER_JAR} refcp=${3?CLASSPATH} committed=${4:?COMMITTED_DIR} out=${5:?OUT}
shift 5

. "$(dirname "$0")/../support/outside_build.sh"
needs_outside_build "$refcp" "MICROSYNTH_DSL_REFERENCE was not set when configuring (the reference interpreter is \
built by the user: docs/dsl-reference.md)" "$jar" "refdiff_fresh: $jar was not built"
cp="$jar:$refcp"
maps=()
for m in "$@"; do
	maps+=(--maps "$m")
	[ -f "$m/../lib/bots/Coac.jar" ] && cp="$cp:$m/../lib/bots/Coac.jar"
done

rm -rf "$out"
mkdir -p "$out/programs" "$out/rec"
jobs="$out/jobs.txt"
: >"$jobs"
for rec in "$committed"/*.rec.gz; do
	name=$(basename "$rec" .rec.gz)
	# match NAME MAP UTT CONFLICT P0 P1 MAXCYCLES SEED p0=... p1=...
	read -r _ _ map _ _ p0 p1 cycles _ < <(zcat "$rec" | sed -n 2p)
	width=$(zcat "$rec" | sed -n '/^init /{s/.*"width":\([0-9]*\).*/\1/p;q}')
	[ "${width:-99}" -le 16 ] || continue
	read -r _ seat salve < <(zcat "$rec" | grep -m1 '^program ')
	# the largest shipped program (basesWorkers32x32A.coac) takes the reference minutes a match
	[ ${#salve} -le 4000 ] || continue
	if [ "$seat" = 0 ]; then opp=$p1; else opp=$p0; fi
	if [ "$opp" = CoacAI ] && ! printf '%s' "$cp" | grep -q Coac.jar; then
		continue
	fi
	printf '%s\n' "$salve" >"$out/programs/$name.salve"
	echo "$name $map $seat $opp $cycles $out/programs/$name.salve" >>"$jobs"
done
n=$(wc -l <"$jobs")
if [ "$n" -eq 0 ]; then
	echo "refdiff_fresh: no committed recording on a map up to 16 wide in $committed" >&2
	exit 1
fi
if ! java -cp "$cp" ai.microsynth.dslref.Recorder --out "$out/rec" "${maps[@]}" --jobs "$jobs" \
	>"$out/recorder.log" 2>"$out/recorder.err"; then
	echo "refdiff_fresh: the reference recorder failed:" >&2
	grep -v WARNING "$out/recorder.err" | tail -5 >&2
	exit 1
fi
same=0
while read -r name _ _ opp _; do
	[ "$opp" = CoacAI ] && continue
	if ! cmp -s <(zcat "$committed/$name.rec.gz") <(zcat "$out/rec/$name.rec.gz"); then
		echo "refdiff_fresh: the reference now plays $name differently from its committed recording" >&2
		exit 1
	fi
	same=$((same + 1))
done <"$jobs"
result=$("$exe" refdiff "$out/rec" 2>&1)
rc=$?
echo "$result"
echo "recorded=$n same_as_committed=$same"
if [ $rc -ne 0 ] || ! printf '%s\n' "$result" | tail -1 | grep -Eq "^matches=$n decisions=[1-9][0-9]* mismatches=0$"; then
	echo "refdiff_fresh: the interpreter decides differently from the reference (exit $rc)" >&2
	exit 1
fi
exit 0
