#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs the whole default test suite
# with ctest. Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(tools/build.sh)
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE sweep "$@"
