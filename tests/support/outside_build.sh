# Sourced by tests that run something the user builds outside the project
# (TMA's jar, the reference interpreter): such a test skips, exit 77 even
# under CI, when the user has not named that build, and fails when the name
# leads nowhere.
#
#   needs_outside_build VALUE SKIP_REASON PATH MISSING_MESSAGE
#
# Skips when VALUE (what the user set) is empty; fails when PATH is absent.
needs_outside_build() {
	if [ -z "$1" ]; then
		echo "skipped: $2"
		exit 77
	fi
	if [ ! -e "$3" ]; then
		echo "$4" >&2
		exit 1
	fi
}
