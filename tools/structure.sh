#!/usr/bin/env bash
# The tree's size and layering limits (STYLE: no C file over 1,000 lines, no
# C function over 120 lines; no include cycle among the project's headers).
# Prints each breach, then one summary line; exits 1 if any limit is broken.
# MS_STRUCTURE_LONG_FUNCTIONS=N tolerates N functions over 120 lines (a
# ratchet for the ones not split yet; files and cycles have no tolerance).
# A function is measured from its signature to the closing brace in column
# 0 (the project's layout); a cycle is found over `#include "…"` edges
# resolved by file name within native/, games/ and tools/.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(find native games tools -name '*.c' -o -name '*.h' | sort)

big=0
for f in $files; do
	n=$(wc -l <"$f")
	case "$f" in *.c) [ "$n" -gt 1000 ] && { echo "file $f: $n lines"; big=$((big + 1)); } ;; esac
done

long=$(awk '
	FNR == 1 { sig = ""; start = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; sigline = FNR }
	/^\{/ { start = sigline }
	/^\}/ && start {
		n = FNR - start + 1
		if (n > 120) {
			name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
			printf "function %s:%d %s: %d lines\n", FILENAME, start, name, n
		}
		start = 0
	}' $(echo "$files" | grep '\.c$'))
[ -n "$long" ] && echo "$long"
nlong=$(printf '%s' "$long" | grep -c . || true)

cycles=$(python3 - $files <<'EOF'
import os, re, sys
files = sys.argv[1:]
byname = {}
for f in files:
    byname.setdefault(os.path.basename(f), []).append(f)
edges = {}
for f in files:
    out = set()
    for line in open(f, encoding="utf-8", errors="replace"):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        cand = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if cand in edges or os.path.exists(cand):
            out.add(cand)
        else:
            for g in byname.get(os.path.basename(inc), []):
                if g.endswith(inc):
                    out.add(g)
    edges[f] = sorted(out)
seen, stack, found = {}, [], []
def dfs(u):
    seen[u] = 1
    stack.append(u)
    for v in edges.get(u, []):
        if seen.get(v) == 1:
            found.append(stack[stack.index(v):] + [v])
        elif v not in seen:
            dfs(v)
    stack.pop()
    seen[u] = 2
for f in files:
    if f not in seen:
        dfs(f)
for c in found:
    print("cycle " + " -> ".join(c))
EOF
)
[ -n "$cycles" ] && echo "$cycles"
ncyc=$(printf '%s' "$cycles" | grep -c . || true)

echo "files_over_1000=$big functions_over_120=$nlong include_cycles=$ncyc"
[ "$big" = 0 ] && [ "$nlong" -le "${MS_STRUCTURE_LONG_FUNCTIONS:-0}" ] && [ "$ncyc" = 0 ]
