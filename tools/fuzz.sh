#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, ASan and UBSan, and runs each for
# a fixed number of seconds from its seed corpus in tests/fuzz/corpus/.
#   tools/fuzz.sh [SECONDS]     (default 30; BUILD_DIR default build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
build=${BUILD_DIR:-build-fuzz}
# Without MPI as well: CI thus builds the whole tree the way a machine without
# Open MPI does (issue 27: the build without MPI keeps working).
CC=clang cmake -S . -B "$build" -DMS_FUZZ=ON -DMS_SANITIZE=ON -DMS_JAVA=OFF -DMS_MPI=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
status=0
for corpus in tests/fuzz/corpus/*/; do
	name=$(basename "$corpus")
	bin="$build/tests/fuzz/fuzz_$name"
	work="$build/fuzz-corpus/$name"
	mkdir -p "$work"
	# New inputs go to the build tree; the committed seeds stay read-only.
	if "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$build/fuzz-$name-" "$work" "$corpus" >"$build/fuzz-$name.log" 2>&1; then
		echo "fuzz_$name: ok ($(grep -Eo 'Done [0-9]+ runs' "$build/fuzz-$name.log" | tail -1))"
	else
		echo "fuzz_$name: FAILED, see $build/fuzz-$name.log"; tail -40 "$build/fuzz-$name.log"; status=1
	fi
done
exit $status
