#!/usr/bin/env bash
# The tree's size and layering limits (STYLE: no C file over 1,000 lines, no
# C function over 120 lines; no include cycle among the project's headers).
# Prints each breach, then one summary line; exits 1 if any limit is broken.
# MS_STRUCTURE_LONG_FUNCTIONS=N tolerates N functions over 120 lines (a
# ratchet for the ones not split yet; files and cycles have no tolerance).
# A function is measured from its signature to the closing brace in column
# 0 (the project's layout); a cycle is found over `#include "…"` edges
# resolved by file name within native/, games/ and tools/.
#
# The kit is the only door (issue 42): outside native/core/ (and the JNI
# bridge, which must not pull the core's allocator wrappers in), code grows
# memory through MS_VEC, ms_buf and arenas, runs threads through ms_pool_for
# (core/pool.h: ms_pool_for for jobs, ms_thread_start for a thread that
# lives beside its caller) and mixes bits through core/hash.h. Four counts over code
# (comments and string literals left out) may only go down: raw
# malloc/calloc calls (raw_alloc: all in tools/, the command-line program;
# the library has none), raw realloc calls (raw_growth, held at 0: growth is
# MS_VEC, ms_vec_grow or ms_buf), pthread_create calls, FNV-1a or SplitMix64
# constants spelled out again, and arrays grown by hand on the context's
# allocator (ms_ctx_realloc calls, which belong to vec.c, buf.c, arena.c).
# Each has a maximum here: lower it with the change that lowers the count.
# Sites are listed for a count over its maximum, and all of them with
# MS_STRUCTURE_VERBOSE=1.
# The folders show the layers (issue 42): nothing under native/ includes a
# game's header (games/**, or a public header of games/<game>/include; the
# umbrella native/include/microsynth.h aside, it includes every public
# header), and every .c/.h under native/, games/ and tools/ has its line in
# HACKING.md (tests are mapped in tests/README.md).
# One public convention (issue 42, libgit2's): a function of the public
# headers that takes the context first and makes an object or a text
# through an `**out` parameter has it right after the context. The count of
# those that do not may only go down too. Options start one way: every
# ms_X_options struct of a header under native/ or games/ (the public ones
# and a game's own, such as gdl_ggp.h; an ms_X_opts spelling is a breach) has
# a `version` field, its MS_X_OPTIONS_VERSION and, in the same header,
# `[MS_EXTERN] int ms_X_options_init(ms_X_options *opts, unsigned int version)`
# (the struct's name and `_init`), and no public function fills options
# under another name (`_default`, `_defaults`): opts_init counts the
# breaches, held at 0. Objects remember their context: free_ctx counts the
# public `void ms_X_free(ms_ctx *ctx, ms_X *x)` taking one, held at 0.
MAX_OUT_PARAM=0
MAX_FREE_CTX=0
MAX_OPTS_INIT=0
MAX_RAW_ALLOC=94
MAX_RAW_GROWTH=0
MAX_RAW_THREADS=0
MAX_HASH_CONSTANTS=0
MAX_CTX_REALLOC=0
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

# The kit's counts; the last line is "name=N ... over" (over: counts above their maximum).
kit=$(python3 - "$MAX_RAW_ALLOC" "$MAX_RAW_GROWTH" "$MAX_RAW_THREADS" "$MAX_HASH_CONSTANTS" "$MAX_CTX_REALLOC" \
	"${MS_STRUCTURE_VERBOSE:-0}" $files <<'PY'
import re, sys
maxima, verbose, files = [int(x) for x in sys.argv[1:6]], sys.argv[6] == "1", sys.argv[7:]
checks = [
    ("raw_alloc", re.compile(r"(?<![\w.>])(?:malloc|calloc)\s*\(")),
    ("raw_growth", re.compile(r"(?<![\w.>])realloc\s*\(")),
    ("raw_threads", re.compile(r"(?<![\w.>])pthread_create\s*\(")),
    # FNV-1a, 64 and 32 bits (offset bases, the library's short one too, and
    # primes), and SplitMix64 (the golden-ratio increment, its upper half,
    # the finaliser's multipliers), in decimal or hex, any suffix.
    ("hash_constants", re.compile(
        r"(?<!\w)(?:146959810393466560(?:37|3)|0x0*cbf29ce484222325|1099511628211|0x0*100000001b3"
        r"|2166136261|0x0*811c9dc5|16777619|0x0*1000193|11400714819323198485"
        r"|0x0*9e3779b9(?:7f4a7c15)?|0x0*bf58476d1ce4e5b9|0x0*94d049bb133111eb)(?![0-9a-f])", re.I)),
    ("ctx_realloc", re.compile(r"(?<![\w.>])ms_ctx_realloc\s*\(")),
]
# comments and string/character literals become blanks (newlines kept, so lines still count)
lex = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
sites = {name: [] for name, _ in checks}
for f in files:
    if f.startswith("native/core/"):
        continue
    # the JNI entry's tables are built before any context exists (C's malloc);
    # its growth still goes through the kit
    jni = f.startswith("games/microrts/bridge/jni/")
    code = lex.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), open(f, encoding="utf-8", errors="replace").read())
    for name, rx in checks:
        if name == "ctx_realloc" and f.startswith("native/include/"):
            continue  # its declaration
        if jni and name != "ctx_realloc":
            continue
        for m in rx.finditer(code):
            sites[name].append("%s:%d" % (f, code.count("\n", 0, m.start()) + 1))
over = 0
for (name, _), most in zip(checks, maxima):
    n = len(sites[name])
    if verbose or n > most:
        for s in sites[name]:
            print("%s %s" % (name, s))
    if n > most:
        print("%s: %d outside native/core/, more than the %d allowed (grow with core/vec.h, buf.h or an arena, "
              "run threads with core/pool.h, mix with core/hash.h)" % (name, n, most))
        over += 1
print(" ".join("%s=%d" % (name, len(sites[name])) for name, _ in checks), over)
PY
)
kit_last=$(printf '%s\n' "$kit" | tail -n 1)
kit_sites=$(printf '%s\n' "$kit" | sed '$d')
[ -n "$kit_sites" ] && echo "$kit_sites"
kit_counts=${kit_last% *}
kit_over=${kit_last##* }

# public functions (ms_ctx *ctx, ..., T **out...) whose out-parameter is not the second
out_sites=$(python3 - native/include/microsynth/*.h games/*/include/microsynth/*.h <<'PY'
import re, sys
for f in sys.argv[1:]:
    code = re.sub(r"/\*.*?\*/", "", open(f, encoding="utf-8").read(), flags=re.S)
    for m in re.finditer(r"MS_EXTERN\s+[\w\s*]+?\b(ms_\w+)\s*\(([^;{]*?)\)\s*;", code, re.S):
        ps = [p.strip() for p in " ".join(m.group(2).split()).split(",")]
        outs = [i for i, p in enumerate(ps) if re.search(r"\*\*\s*out\w*$", p)]
        if re.match(r"ms_ctx\s*\*\s*ctx$", ps[0]) and outs and outs[0] != 1:
            print("out_param %s %s" % (f, m.group(1)))
PY
)
nout=$(printf '%s' "$out_sites" | grep -c . || true)
free_sites=$(grep -HnE 'MS_EXTERN[[:space:]]+void[[:space:]]+ms_[A-Za-z0-9_]+_free[[:space:]]*\([[:space:]]*ms_ctx[[:space:]]*\*[[:space:]]*[A-Za-z_]+[[:space:]]*,' \
	native/include/microsynth/*.h games/*/include/microsynth/*.h | sed 's/^/free_ctx /' || true)
nfree=$(printf '%s' "$free_sites" | grep -c . || true)
if [ "$nfree" -gt "$MAX_FREE_CTX" ] || [ "${MS_STRUCTURE_VERBOSE:-0}" = 1 ]; then
	[ -n "$free_sites" ] && echo "$free_sites"
fi
[ "$nfree" -gt "$MAX_FREE_CTX" ] && echo "free_ctx: $nfree public free functions take a context, more than the $MAX_FREE_CTX allowed (the object remembers its context)"
if [ "$nout" -gt "$MAX_OUT_PARAM" ] || [ "${MS_STRUCTURE_VERBOSE:-0}" = 1 ]; then
	[ -n "$out_sites" ] && echo "$out_sites"
fi
[ "$nout" -gt "$MAX_OUT_PARAM" ] && echo "out_param: $nout public functions take their **out parameter elsewhere than after the context, more than the $MAX_OUT_PARAM allowed"

# options structs without the one init spelling, and init functions with another
opts_sites=$(python3 - $(echo "$files" | grep -E '^(native|games)/.*\.h$') <<'PY'
import re, sys
for f in sys.argv[1:]:
    code = re.sub(r"/\*.*?\*/", "", open(f, encoding="utf-8").read(), flags=re.S)
    for m in re.finditer(r"typedef\s+struct\s+(ms_\w+_(?:opts|options))\s*\{(.*?)\}\s*(\w+)\s*;", code, re.S):
        name, body = m.group(1), m.group(2)
        if name.endswith("_opts"):
            print("opts_init %s %s: options are spelled ms_X_options (libgit2's git_X_options)" % (f, name))
        if not re.search(r"^\s*(?:unsigned\s+)?int\s+version\s*;", body, re.M):
            print("opts_init %s %s: no `version` field" % (f, name))
        if not re.search(r"#\s*define\s+%s_VERSION\b" % name.upper(), code):
            print("opts_init %s %s: no %s_VERSION" % (f, name, name.upper()))
        if not re.search(r"(?:MS_EXTERN\s+)?\bint\s+%s_init\s*\(\s*%s\s*\*\s*\w+\s*,\s*unsigned\s+int\s+\w+\s*\)\s*;"
                         % (name, name), code):
            print("opts_init %s %s: no `MS_EXTERN int %s_init(%s *opts, unsigned int version);`" % (f, name, name, name))
    for m in re.finditer(r"(?:MS_EXTERN\s+)?\b(?:void|int)\s+(ms_\w+_defaults?)\s*\(\s*(?:const\s+)?ms_\w+_(?:opts|options)\s*\*", code):
        print("opts_init %s %s: options filled under another name than <struct>_init" % (f, m.group(1)))
PY
)
nopts=$(printf '%s' "$opts_sites" | grep -c . || true)
if [ "$nopts" -gt "$MAX_OPTS_INIT" ] || [ "${MS_STRUCTURE_VERBOSE:-0}" = 1 ]; then
	[ -n "$opts_sites" ] && echo "$opts_sites"
fi
[ "$nopts" -gt "$MAX_OPTS_INIT" ] && echo "opts_init: $nopts options structs or init functions break the one spelling, more than the $MAX_OPTS_INIT allowed"

# native/ including a game's header; source files HACKING.md does not map
layer_sites=$(python3 - $files <<'PY'
import os, re, sys, glob
files = sys.argv[1:]
game_public = {os.path.basename(h) for h in glob.glob("games/*/include/microsynth/*.h")}
for f in files:
    if not f.startswith("native/") or f == "native/include/microsynth.h":
        continue
    for n, line in enumerate(open(f, encoding="utf-8", errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        target = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if inc.startswith("games/") or target.startswith("games/") or \
                (inc.startswith("microsynth/") and os.path.basename(inc) in game_public):
            print("game_header %s:%d includes %s" % (f, n, inc))
mapped = set()
for line in open("HACKING.md", encoding="utf-8"):
    if not line.startswith("| `"):
        continue
    d = ""
    for tok in re.findall(r"`([^`]+)`", line.split(" | ")[0]):
        names = [tok.replace("[ch]", "c"), tok.replace("[ch]", "h")] if "[ch]" in tok else [tok]
        for t in names:
            if "/" in t:
                d = os.path.dirname(t)
            elif d:
                t = d + "/" + t
            mapped.add(t)
for f in files:
    if f not in mapped:
        print("unmapped %s (add its line to HACKING.md)" % f)
PY
)
ngame=$(printf '%s\n' "$layer_sites" | grep -c '^game_header' || true)
nunmapped=$(printf '%s\n' "$layer_sites" | grep -c '^unmapped' || true)
[ -n "$layer_sites" ] && echo "$layer_sites"

echo "files_over_1000=$big functions_over_120=$nlong include_cycles=$ncyc $kit_counts out_param=$nout opts_init=$nopts free_ctx=$nfree game_headers_in_native=$ngame unmapped=$nunmapped"
[ "$big" = 0 ] && [ "$nlong" -le "${MS_STRUCTURE_LONG_FUNCTIONS:-0}" ] && [ "$ncyc" = 0 ] && [ "$kit_over" = 0 ] &&
	[ "$nout" -le "$MAX_OUT_PARAM" ] && [ "$nopts" -le "$MAX_OPTS_INIT" ] && [ "$nfree" -le "$MAX_FREE_CTX" ] && [ "$ngame" = 0 ] && [ "$nunmapped" = 0 ]
