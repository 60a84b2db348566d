#!/usr/bin/env bash
# Sets up the machine (tools/setup.sh) and builds into BUILD_DIR (default
# build); prints the build directory's path last. Extra arguments go to
# CMake's configure step (e.g. -DMS_JAVA=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh >&2
build=${BUILD_DIR:-build}
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && gen=()
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >&2
cmake --build "$build" -j "$(nproc)" >&2
echo "$build"
