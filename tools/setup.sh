#!/usr/bin/env bash
# Set up a fresh machine for microsynth: Debian packages, then the official
# MicroRTS harness (microrts.jar, competition bots, maps) from the Python
# package registry into a cache. Idempotent: a second run only checks.
#
#   tools/setup.sh [--no-apt] [--no-harness]
#
# MICROSYNTH_HARNESS overrides the cache directory
# (default: ~/.cache/microsynth/harness).
set -euo pipefail

HARNESS_PKG=gym-microrts
HARNESS_VERSION=0.6.0
# sha256 of gym-microrts-0.6.0.tar.gz as served by the registry. Only the
# source archive exists for 0.6.0 (no wheel), see docs/harness.md.
HARNESS_SHA256=b88bb9cba6e7686bb98a62f1f8123bda0fa43109b5e7ea9d4e02c9bc5f65ec4e

do_apt=1
do_harness=1
for a in "$@"; do
	case "$a" in
	--no-apt) do_apt=0 ;;
	--no-harness) do_harness=0 ;;
	-h|--help) sed -n '2,10p' "$0"; exit 0 ;;
	*) echo "setup: unknown option '$a'" >&2; exit 2 ;;
	esac
done

say() { printf 'setup: %s\n' "$*" >&2; }

# --- Debian packages -------------------------------------------------------
PKGS=(build-essential cmake ninja-build pkg-config clang llvm
      libwebsockets-dev libcjson-dev libxml2-dev libcmocka-dev libzip-dev zlib1g-dev
      default-jdk-headless zip unzip xvfb xauth python3-pip libclang-rt-dev)

if [ "$do_apt" = 1 ]; then
	missing=()
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	# A JDK other than default-jdk may already be present; accept it.
	if command -v javac >/dev/null 2>&1; then
		missing=("${missing[@]/default-jdk-headless}")
	fi
	# pip comes with the machine's Python when it has one.
	if command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1; then
		missing=("${missing[@]/python3-pip}")
	fi
	want=()
	for p in "${missing[@]}"; do [ -n "$p" ] && want+=("$p"); done
	if [ "${#want[@]}" -gt 0 ]; then
		say "installing Debian packages: ${want[*]}"
		SUDO=""
		[ "$(id -u)" = 0 ] || SUDO="sudo"
		$SUDO apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${want[@]}" >/dev/null
	else
		say "Debian packages present"
	fi
fi

# --- the official harness --------------------------------------------------
cache="${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness}"
stamp="$cache/HARNESS"

if [ "$do_harness" = 1 ]; then
	if [ -f "$stamp" ] && grep -q "sha256=$HARNESS_SHA256" "$stamp" \
	   && [ -f "$cache/microrts.jar" ] && [ -d "$cache/maps" ]; then
		say "harness cached in $cache"
	else
		pip=pip3
		command -v pip3 >/dev/null 2>&1 || pip=pip
		dl=$(mktemp -d)
		trap 'rm -rf "$dl"' EXIT
		say "downloading $HARNESS_PKG==$HARNESS_VERSION"
		# The wheel of 0.6.0 is not published; first try it as the issue
		# asks, then fall back to the source archive, which ships the jars.
		if ! $pip download -q --no-deps --only-binary=:all: --python-version 3.9 \
			-d "$dl" "$HARNESS_PKG==$HARNESS_VERSION" >/dev/null 2>&1; then
			say "no wheel for $HARNESS_VERSION; using the source archive"
			$pip download -q --no-deps --no-binary=:all: --python-version 3.9 \
				-d "$dl" "$HARNESS_PKG==$HARNESS_VERSION"
		fi
		file=$(ls "$dl"/* | head -n 1)
		sum=$(sha256sum "$file" | cut -d' ' -f1)
		case "$file" in
		*.tar.gz) expect=$HARNESS_SHA256 ;;
		*) expect=${HARNESS_WHEEL_SHA256:-unknown} ;;
		esac
		if [ "$sum" != "$expect" ]; then
			say "checksum mismatch for $(basename "$file"): got $sum, want $expect"
			exit 1
		fi
		ex="$dl/x"
		mkdir -p "$ex"
		case "$file" in
		*.tar.gz) tar -xzf "$file" -C "$ex" ;;
		*) unzip -q "$file" -d "$ex" ;;
		esac
		src=$(dirname "$(find "$ex" -name microrts.jar -print -quit)")
		if [ -z "$src" ] || [ ! -f "$src/microrts.jar" ]; then
			say "$(basename "$file") holds no microrts.jar"
			exit 1
		fi
		rm -rf "$cache.new"
		mkdir -p "$cache.new/lib"
		cp "$src/microrts.jar" "$cache.new/"
		cp -r "$src/lib/bots" "$cache.new/lib/"
		cp -r "$src/maps" "$cache.new/"
		cp "$src/LICENSE" "$cache.new/LICENSE" 2>/dev/null || true
		{
			echo "package=$HARNESS_PKG"
			echo "version=$HARNESS_VERSION"
			echo "archive=$(basename "$file")"
			echo "sha256=$sum"
			echo "microrts_jar_sha256=$(sha256sum "$cache.new/microrts.jar" | cut -d' ' -f1)"
		} > "$cache.new/HARNESS"
		rm -rf "$cache"
		mkdir -p "$(dirname "$cache")"
		mv "$cache.new" "$cache"
		say "harness unpacked into $cache"
	fi
fi
echo "harness=$cache"
