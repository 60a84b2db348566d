#!/usr/bin/env bash
# The 2025 competition's maps are also listed by tools/competition.sh (their
# game length) and java/CMakeLists.txt (the harness-contents test): both
# lists must be the C table's 2025 set, in its order.
#   competition_copies.sh COMPETITION_TABLE REPO_ROOT
set -euo pipefail
table=$1 root=$2
want=$("$table" | awk '$1 == "map" && $2 == "2025" { sub(/^16x16\//, "", $3); sub(/\.xml$/, "", $3); print $3 }' | xargs)
[ -n "$want" ] || { echo "no 2025 maps in the C table"; exit 1; }
sh=$(sed -n '/^maps_2025="/,/"$/p' "$root/tools/competition.sh" | tr -d '"' | sed 's/^maps_2025=//' | xargs)
cm=$(sed -n '/^set(_maps16 /,/)$/p' "$root/java/CMakeLists.txt" | sed 's/^set(_maps16//; s/)$//' | xargs)
bad=0
[ "$sh" = "$want" ] || { echo "tools/competition.sh maps_2025: '$sh', the C table: '$want'"; bad=1; }
[ "$cm" = "$want" ] || { echo "java/CMakeLists.txt _maps16: '$cm', the C table: '$want'"; bad=1; }
[ "$bad" = 0 ] && echo "both copies list the C table's $(wc -w <<<"$want") maps of 2025"
exit $bad
