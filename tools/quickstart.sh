#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs the main job on a small default.
# Until the native engine lands the main job is one official headless match
# in the Java harness: WorkerRush vs LightRush on basesWorkers8x8A.
# Extra arguments go to `microsynth match`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(tools/build.sh)
exec "$build/bin/microsynth" match "$@"
