#!/usr/bin/env bash
# Decision identity of the native TMA with the jar, on matches the jar plays
# now: TMA against the rushes, CoacAI and mayari (seats alternating) on
# 8x8/basesWorkers8x8A, two of the 2025 16x16 maps and 24x24/basesWorkers24x24,
# recorded on the current official harness; `botdiff --edition 2023` must
# then find every TMA decision as recorded.
#
#   tma_botdiff.sh EXE HARNESS OUT
#
# EXE is the microsynth CLI, HARNESS the configured harness (the
# MICROSYNTH_HARNESS of the environment wins), OUT a scratch folder. TMA is
# never part of the project: the user builds its jar and names it in
# MICROSYNTH_TMA (docs/harness.md, section 11). Without that variable, or
# with a harness that is not the current official build (edition 2023,
# which TMA is built against), the test skips: exit 77, under CI too. Exit
# 0 when all decisions match, 1 otherwise.
set -u

exe=${1:?EXE} harness=${2:?HARNESS} out=${3:?OUT}
export MICROSYNTH_HARNESS=${MICROSYNTH_HARNESS:-$harness}

. "$(dirname "$0")/../support/outside_build.sh"
needs_outside_build "${MICROSYNTH_TMA:-}" \
	"MICROSYNTH_TMA is not set (TMA is built by the user: docs/harness.md, section 11)" \
	"${MICROSYNTH_TMA:-}" "tma_botdiff: MICROSYNTH_TMA=${MICROSYNTH_TMA:-} does not exist"
if ! "$exe" harness 2>/dev/null | grep -q ' ok=1 edition=2023$'; then
	echo "skipped: $MICROSYNTH_HARNESS is not the current official harness (edition 2023) TMA is built against"
	exit 77
fi

rm -rf "$out"
mkdir -p "$out"
# NAME|MAP|P0|P1|UTT|CONFLICT|CYCLES
jobs=(
	"tma_vs_worker_8x8|8x8/basesWorkers8x8A.xml|TMA|WorkerRush|2|1|3000"
	"coac_vs_tma_8x8|8x8/basesWorkers8x8A.xml|CoacAI|TMA|2|1|3000"
	"tma_vs_mayari_8x8|8x8/basesWorkers8x8A.xml|TMA|mayari|3|2|3000"
	"light_vs_tma_16x16A|16x16/basesWorkers16x16A.xml|LightRush|TMA|2|1|5000"
	"tma_vs_coac_16x16A|16x16/basesWorkers16x16A.xml|TMA|CoacAI|2|1|5000"
	"mayari_vs_tma_16x16A|16x16/basesWorkers16x16A.xml|mayari|TMA|2|1|5000"
	"tma_vs_heavy_barracks16x16|16x16/TwoBasesBarracks16x16.xml|TMA|HeavyRush|2|1|5000"
	"ranged_vs_tma_barracks16x16|16x16/TwoBasesBarracks16x16.xml|RangedRush|TMA|1|3|5000"
	"tma_vs_worker_24x24|24x24/basesWorkers24x24.xml|TMA|WorkerRush|2|1|6000"
	"coac_vs_tma_24x24|24x24/basesWorkers24x24.xml|CoacAI|TMA|2|1|6000"
)
for job in "${jobs[@]}"; do
	IFS='|' read -r name map p0 p1 utt conflict cycles <<<"$job"
	if ! "$exe" record --out "$out/$name" --map "$map" --p0 "$p0" --p1 "$p1" --utt "$utt" --conflict "$conflict" \
		--max-cycles "$cycles" --seed 3 >"$out/$name.log" 2>&1; then
		echo "tma_botdiff: recording $name failed:" >&2
		tail -5 "$out/$name.log" >&2
		exit 1
	fi
done
result=$("$exe" botdiff --edition 2023 --p0 TMA --p1 TMA "$out"/*/match.rec.gz 2>&1)
rc=$?
echo "$result"
if [ $rc -ne 0 ] || ! printf '%s\n' "$result" | tail -1 | grep -Eq "^matches=${#jobs[@]} decisions=[1-9][0-9]* mismatches=0$"; then
	echo "tma_botdiff: the native TMA decides differently from the jar (exit $rc)" >&2
	exit 1
fi
exit 0
