#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs the main job on a small default:
# one official match in the Java harness (WorkerRush vs LightRush on
# basesWorkers8x8A), recorded with its official trace, then replayed by the
# native engine, which checks every state and prints the result and its
# speed. Extra arguments go to `microsynth record` (--map, --p0, --p1, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(tools/build.sh)
out="$build/quickstart"
rm -rf "$out"
"$build/bin/microsynth" record --traces --out "$out" "$@" | grep -E '^(recorded|matches=)'
"$build/bin/microsynth" diff "$out"
exec "$build/bin/microsynth" replay "$out"/*.trace.xml
