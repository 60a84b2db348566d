#!/usr/bin/env bash
# Set up a fresh machine for microsynth: Debian packages, then the official
# MicroRTS harness (microrts.jar, competition bots, maps) from the Python
# package registry into a cache. Idempotent: a second run only checks.
#
#   tools/setup.sh [--no-apt] [--no-harness]
#   tools/setup.sh --harness-jar PATH [--bots DIR] [--maps DIR] [--no-apt]
#
# MICROSYNTH_HARNESS overrides the cache directory
# (default: ~/.cache/microsynth/harness).
#
# --harness-jar installs a MicroRTS jar you built yourself (for instance from
# the current official repository, see docs/harness.md) as the harness
# instead: the jar, the bot jars of DIR (default: lib/bots beside the jar or
# up to two levels up) and the maps of DIR (default: maps/ found the same way) go
# into $MICROSYNTH_HARNESS, or ~/.cache/microsynth/harness-user when it is
# unset, with the checksum of every jar recorded in its HARNESS file. Point
# every command at it with MICROSYNTH_HARNESS=that directory.
set -euo pipefail

HARNESS_PKG=gym-microrts
HARNESS_VERSION=0.6.0
# sha256 of gym-microrts-0.6.0.tar.gz as served by the registry. Only the
# source archive exists for 0.6.0 (no wheel), see docs/harness.md.
HARNESS_SHA256=b88bb9cba6e7686bb98a62f1f8123bda0fa43109b5e7ea9d4e02c9bc5f65ec4e

do_apt=1
do_harness=1
user_jar=""
user_bots=""
user_maps=""
needs_value() {
	[ "$2" -ge 2 ] || { echo "setup: $1 needs a value" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
	case "$1" in
	--no-apt) do_apt=0; shift ;;
	--no-harness) do_harness=0; shift ;;
	--harness-jar) needs_value "$1" $#; user_jar=$2; shift 2 ;;
	--bots) needs_value "$1" $#; user_bots=$2; shift 2 ;;
	--maps) needs_value "$1" $#; user_maps=$2; shift 2 ;;
	-h|--help) sed -n '2,18p' "$0"; exit 0 ;;
	*) echo "setup: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$user_jar" ] && { [ -n "$user_bots" ] || [ -n "$user_maps" ]; }; then
	echo "setup: --bots and --maps go with --harness-jar" >&2
	exit 2
fi

say() { printf 'setup: %s\n' "$*" >&2; }

# --- Debian packages -------------------------------------------------------
PKGS=(build-essential cmake ninja-build pkg-config clang llvm
      libwebsockets-dev libcjson-dev libxml2-dev libcmocka-dev libzip-dev zlib1g-dev
      default-jdk-headless zip unzip xvfb xauth python3-pip python3-venv libclang-rt-dev
      libopenmpi-dev openmpi-bin chromium)

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

# --- a harness the user built ----------------------------------------------
# Looks for NAME beside the jar, then one and two levels up (the official
# build writes build/microrts.jar or bin/../microrts.jar inside the checkout).
find_beside() {
	local d
	d=$(cd "$(dirname "$1")" && pwd)
	for c in "$d/$2" "$d/../$2" "$d/../../$2"; do
		[ -d "$c" ] && { (cd "$c" && pwd); return 0; }
	done
	return 1
}

install_user_harness() {
	local jar=$1 bots=$2 maps=$3 cache=$4 sum j n
	[ -f "$jar" ] || { say "--harness-jar $jar: no such file"; exit 2; }
	command -v unzip >/dev/null 2>&1 || { say "unzip is needed to check $jar"; exit 1; }
	# The runners need the engine and, to read maps, jdom inside the jar
	# (the official build.xml's export_jar puts lib/*.jar into it).
	local listing
	listing=$(unzip -Z1 "$jar" 2>/dev/null) || { say "--harness-jar $jar: not a jar"; exit 2; }
	for c in rts/GameState.class ai/core/AI.class tournaments/RoundRobinTournament.class; do
		grep -qx "$c" <<<"$listing" \
			|| { say "--harness-jar $jar: no $c (not a MicroRTS build)"; exit 2; }
	done
	grep -q '^org/jdom/' <<<"$listing" \
		|| { say "--harness-jar $jar: no org/jdom/ classes (build the jar with jdom inside, as build.xml's export_jar does)"; exit 2; }
	if [ -z "$bots" ]; then
		bots=$(find_beside "$jar" lib/bots) || { say "no lib/bots beside $jar; give --bots DIR"; exit 2; }
	fi
	if [ -z "$maps" ]; then
		maps=$(find_beside "$jar" maps) || { say "no maps/ beside $jar; give --maps DIR"; exit 2; }
	fi
	[ -d "$bots" ] || { say "--bots $bots: not a directory"; exit 2; }
	[ -d "$maps" ] || { say "--maps $maps: not a directory"; exit 2; }
	sum=$(sha256sum "$jar" | cut -d' ' -f1)
	if [ -f "$cache/HARNESS" ] && grep -qx "package=user" "$cache/HARNESS" \
	   && grep -qx "microrts_jar_sha256=$sum" "$cache/HARNESS" && [ -d "$cache/maps" ]; then
		say "user harness $sum already in $cache"
		return 0
	fi
	if [ -f "$cache/HARNESS" ] && ! grep -qx "package=user" "$cache/HARNESS"; then
		say "$cache holds the $(sed -n 's/^package=//p' "$cache/HARNESS") harness; replacing it with the user build"
	fi
	rm -rf "$cache.new"
	mkdir -p "$cache.new/lib/bots"
	cp "$jar" "$cache.new/microrts.jar"
	n=0
	for j in "$bots"/*.jar; do
		[ -f "$j" ] || continue
		cp "$j" "$cache.new/lib/bots/"
		n=$((n + 1))
	done
	cp -r "$maps" "$cache.new/maps"
	{
		echo "package=user"
		echo "version=user-${sum:0:12}"
		echo "archive=$(basename "$jar")"
		echo "sha256=$sum"
		echo "microrts_jar_sha256=$sum"
		for j in "$cache.new"/lib/bots/*.jar; do
			[ -f "$j" ] || continue
			echo "bot_jar_sha256=$(basename "$j"):$(sha256sum "$j" | cut -d' ' -f1)"
		done
	} > "$cache.new/HARNESS"
	rm -rf "$cache"
	mkdir -p "$(dirname "$cache")"
	mv "$cache.new" "$cache"
	say "user harness $(basename "$jar") ($n bot jars) installed in $cache"
	say "use it with: export MICROSYNTH_HARNESS=$cache"
}

if [ -n "$user_jar" ]; then
	cache="${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness-user}"
	install_user_harness "$user_jar" "$user_bots" "$user_maps" "$cache"
	echo "harness=$cache"
	exit 0
fi

# --- catanatron 3.2.1 (Catan's reference engine, for the bridge and the bench) ---
# A virtual environment in ~/.cache/microsynth/catanatron-3.2.1 (MICROSYNTH_CATANATRON
# overrides); the wheel's sha256 is checked (../shared/data/catan/README.md).
CATANATRON_SHA256=92bf5c114b6e47588ba1bf5b7d0b11f9f20d142bdc47cf787206c1ee5c506a36
catan_venv="${MICROSYNTH_CATANATRON:-$HOME/.cache/microsynth/catanatron-3.2.1}"
if [ -f "$catan_venv/INSTALLED" ] && grep -qx "sha256=$CATANATRON_SHA256" "$catan_venv/INSTALLED"; then
	say "catanatron 3.2.1 in $catan_venv"
elif command -v python3 >/dev/null 2>&1 && python3 -m venv "$catan_venv" >/dev/null 2>&1; then
	cdl=$(mktemp -d)
	if "$catan_venv/bin/pip" download -q --no-deps -d "$cdl" catanatron==3.2.1 >/dev/null 2>&1 \
	   && [ "$(sha256sum "$cdl"/catanatron-3.2.1-py3-none-any.whl | cut -d' ' -f1)" = "$CATANATRON_SHA256" ] \
	   && "$catan_venv/bin/pip" install -q "$cdl"/catanatron-3.2.1-py3-none-any.whl >/dev/null 2>&1; then
		echo "sha256=$CATANATRON_SHA256" > "$catan_venv/INSTALLED"
		say "catanatron 3.2.1 installed in $catan_venv"
	else
		say "catanatron 3.2.1 not installed (download or checksum failed); 'catan bench' will run without it"
	fi
	rm -rf "$cdl"
else
	say "no python3 venv: catanatron not installed; 'catan bench' will run without it"
fi

# --- the official harness --------------------------------------------------
cache="${MICROSYNTH_HARNESS:-$HOME/.cache/microsynth/harness}"
stamp="$cache/HARNESS"

if [ "$do_harness" = 1 ]; then
	if [ -f "$stamp" ] && grep -qx "package=user" "$stamp"; then
		# Installed with --harness-jar: never replaced behind the user's back.
		say "user harness in $cache (installed with --harness-jar); leaving it"
	elif [ -f "$stamp" ] && grep -q "sha256=$HARNESS_SHA256" "$stamp" \
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
