#!/usr/bin/env bash
# The tournament runners adapt to the tournament API of the current official
# MicroRTS (instance methods of a common Tournament class), which CI cannot
# build: a stand-in harness jar is made here, at test time, from the
# installed (2022, static API) microrts.jar with tournaments/*.class replaced
# by our own classes of the newer shape (tests/harness/standin/). Then:
#
#   cli   tools/setup.sh --harness-jar installs the stand-in as a user
#         harness (checksums recorded), `microsynth tournament` runs a round
#         robin and a fixed-opponents tournament on it through the instance
#         API, and on the installed harness through the static API.
#   jni   JniTournament (the drop-in bot among Java bots) runs on the
#         stand-in jar through the instance API.
#
#   standin_tournament.sh cli|jni --harness DIR --work DIR --javac J --jar J
#       --java J --src DIR [--setup SH --cli EXE] [--jni-tools JAR --bot-jar JAR]
#
# Exit 0 when every check holds, 1 otherwise, 2 on bad usage; 77 (skip) when
# the harness is absent and CI is unset (fails under CI).
set -u

mode=${1:-}
shift || true
harness= work= javac= jartool= java= src= setup= cli= jnitools= botjar=
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || { echo "standin: $1 needs a value" >&2; exit 2; }
	case "$1" in
	--harness) harness=$2 ;;
	--work) work=$2 ;;
	--javac) javac=$2 ;;
	--jar) jartool=$2 ;;
	--java) java=$2 ;;
	--src) src=$2 ;;
	--setup) setup=$2 ;;
	--cli) cli=$2 ;;
	--jni-tools) jnitools=$2 ;;
	--bot-jar) botjar=$2 ;;
	*) echo "standin: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift 2
done
case "$mode" in cli|jni) ;; *) echo "standin: first argument must be cli or jni" >&2; exit 2 ;; esac

if [ ! -f "$harness/microrts.jar" ]; then
	case "${CI:-}" in ""|0|false|FALSE|no|off)
		echo "skipped: no harness in $harness (run tools/setup.sh)" >&2; exit 77 ;;
	esac
	echo "standin: no harness in $harness (required under CI)" >&2
	exit 1
fi

fail=0
check() { # check DESCRIPTION FILE ERE
	if grep -Eq -- "$3" "$2"; then
		echo "ok: $1"
	else
		echo "FAIL: $1 (no line matches /$3/ in $(basename "$2"))"
		fail=1
	fi
}
show() { echo "--- $1:"; cat "$2"; echo "---"; }

rm -rf "$work"
mkdir -p "$work/classes"
# 1. The stand-in jar: the installed engine, our tournaments of the newer shape.
"$javac" --release 8 -nowarn -encoding UTF-8 -cp "$harness/microrts.jar" -d "$work/classes" \
	"$src"/tournaments/*.java || { echo "FAIL: the stand-in classes do not compile"; exit 1; }
cp "$harness/microrts.jar" "$work/standin.jar"
"$jartool" uf "$work/standin.jar" -C "$work/classes" tournaments || { echo "FAIL: jar uf"; exit 1; }
# It must really have the newer shape (else the test proves nothing): an
# instance runTournament and a List constructor, no static runTournament.
javap=$(dirname "$javac")/javap
"$javap" -cp "$work/standin.jar" tournaments.RoundRobinTournament tournaments.FixedOpponentsTournament \
	> "$work/javap.txt" 2>&1
check "stand-in round robin has the (List) constructor" "$work/javap.txt" \
	'public tournaments\.RoundRobinTournament\(java\.util\.List<ai\.core\.AI>\)'
check "stand-in fixed opponents has the (List, List) constructor" "$work/javap.txt" \
	'public tournaments\.FixedOpponentsTournament\(java\.util\.List<ai\.core\.AI>, java\.util\.List<ai\.core\.AI>\)'
if grep -q 'static .*runTournament' "$work/javap.txt"; then
	echo "FAIL: the stand-in has a static runTournament"
	fail=1
fi

map=8x8/basesWorkers8x8A.xml
if [ "$mode" = cli ]; then
	# 2. Install it as a user harness.
	cache="$work/cache"
	MICROSYNTH_HARNESS="$cache" "$setup" --no-apt --harness-jar "$work/standin.jar" \
		--bots "$harness/lib/bots" --maps "$harness/maps" > "$work/setup.out" 2> "$work/setup.err"
	rc=$?
	show "setup stdout" "$work/setup.out"
	show "setup stderr" "$work/setup.err"
	[ "$rc" = 0 ] || { echo "FAIL: setup.sh --harness-jar exit status $rc"; fail=1; }
	sum=$(sha256sum "$work/standin.jar" | cut -d' ' -f1)
	check "HARNESS says package=user" "$cache/HARNESS" '^package=user$'
	check "HARNESS records the jar's sha256" "$cache/HARNESS" "^microrts_jar_sha256=$sum\$"
	check "HARNESS records Coac.jar's sha256" "$cache/HARNESS" '^bot_jar_sha256=Coac\.jar:[0-9a-f]{64}$'
	check "setup's last line names the cache" "$work/setup.out" "^harness=$cache\$"

	# 3. Tournaments on it: the instance API is found and called.
	MICROSYNTH_HARNESS="$cache" timeout 300 "$cli" tournament --ai WorkerRush --ai LightRush --map "$map" \
		--max-cycles 1500 > "$work/rr.out" 2> "$work/rr.err"
	echo "round robin exit status $?"
	show "round robin stdout" "$work/rr.out"
	check "round robin: instance API selected" "$work/rr.out" \
		'^tournament_api=instance class=tournaments\.RoundRobinTournament\(microrts\.jar\)$'
	check "round robin: the stand-in ran" "$work/rr.out" '^stand-in tournaments\.RoundRobinTournament instance API ais=2 '
	check "round robin: both games counted" "$work/rr.out" '^games=2 crashes=0 timeouts=0 wins_0=[0-9]+ wins_1=[0-9]+$'
	MICROSYNTH_HARNESS="$cache" timeout 300 "$cli" tournament --ai WorkerRush --opponent PassiveAI \
		--opponent LightRush --map "$map" --iterations 2 --max-cycles 1500 > "$work/fo.out" 2> "$work/fo.err"
	echo "fixed opponents exit status $?"
	show "fixed opponents stdout" "$work/fo.out"
	check "fixed opponents: instance API selected" "$work/fo.out" \
		'^tournament_api=instance class=tournaments\.FixedOpponentsTournament\(microrts\.jar\)$'
	check "fixed opponents: the stand-in ran" "$work/fo.out" \
		'^stand-in tournaments\.FixedOpponentsTournament instance API ais=1 opponents=2$'
	check "fixed opponents: WorkerRush wins all 4" "$work/fo.out" '^games=4 crashes=0 timeouts=0 wins_0=4$'

	# 4. The same command on the installed harness takes the static API.
	MICROSYNTH_HARNESS="$harness" timeout 300 "$cli" tournament --ai WorkerRush --ai LightRush --map "$map" \
		--max-cycles 300 > "$work/old.out" 2> "$work/old.err"
	echo "installed harness exit status $?"
	check "installed harness: static API selected" "$work/old.out" \
		'^tournament_api=static class=tournaments\.RoundRobinTournament\(microrts\.jar\)$'
	check "installed harness: the official code ran" "$work/old.out" '^games=2 crashes=0 timeouts=0 '
	if grep -q '^stand-in' "$work/old.out"; then
		echo "FAIL: the stand-in ran on the installed harness"
		fail=1
	fi
else
	# 2. JniTournament: the drop-in bot among Java bots, on the stand-in jar.
	timeout 300 "$java" -Djava.awt.headless=true -cp "$jnitools:$work/standin.jar:$botjar" \
		ai.microsynth.harness.JniTournament --harness "$harness" --map "maps/$map" \
		--ai microsynth:LightRush --ai ai.abstraction.WorkerRush --max-cycles 1500 --out "$work/jni" \
		> "$work/jni.out" 2> "$work/jni.err"
	rc=$?
	show "JniTournament stdout" "$work/jni.out"
	echo "--- JniTournament stderr (last 20 lines):"; tail -n 20 "$work/jni.err"; echo "---"
	[ "$rc" = 0 ] || { echo "FAIL: JniTournament exit status $rc"; fail=1; }
	check "JniTournament: instance API selected" "$work/jni.out" \
		'^tournament_api=instance class=tournaments\.RoundRobinTournament\(standin\.jar\)$'
	check "JniTournament: the stand-in ran" "$work/jni.out" '^stand-in tournaments\.RoundRobinTournament instance API ais=2 '
	check "JniTournament: both games played" "$work/jni.out" \
		'^games=2 expected=2 crashes=0 timeouts=0 ours_crashed=0 ours_timedout=0$'
fi

echo "standin mode=$mode failed=$fail"
exit "$fail"
