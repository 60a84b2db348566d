#!/usr/bin/env python3
"""Where a synthesis against the native field spends its time, per map size.

Runs the searches of `microsynth bench synth --field` (SA against CoacAI, mayari
and the four rushes, both seats, edition 2023, one thread) under `perf record`,
then gives each sampled function to the part of the code that defines it and
prints the shares side by side, one column per search. This is how the table in
PERFS.md ("Field synthesis: what 3x would take") was made.

Usage: tools/profile_field.py [--exe PATH] [--freq HZ] [MAP=PROGRAM@N ...]
       tools/profile_field.py --classify SYMBOL...   (the part each symbol counts in)

Without maps: the bench's five (8x8 to 64x64, from the shipped programs). The
executable defaults to build/bin/microsynth; build it with -g
(RelWithDebInfo) for call sites, though symbol names are all this needs.
Needs `perf` (Debian: linux-perf) and a kernel that lets you sample
(/proc/sys/kernel/perf_event_paranoid <= 2). The path memo's lookups
(core/memo.c) count with the program's side though the bots' A* uses the
memo too: the program's share is, if anything, high.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# cmd_bench_field.c's default_runs: keep the two in step
DEFAULT_RUNS = [
    ("8x8/basesWorkers8x8A.xml", "basesWorkers8x8A.ms", 1500),
    ("16x16/basesWorkers16x16J.xml", "basesWorkers16x16A.ms", 600),
    ("24x24/basesWorkers24x24A.xml", "basesWorkers24x24.ms", 200),
    ("BWDistantResources32x32.xml", "BWDistantResources32x32.ms", 100),
    ("BroodWar/(4)BloodBath.scmB.xml", "BloodBath.scmB.ms", 30),
]
FIELD = ["CoacAI", "mayari", "WorkerRush", "LightRush", "HeavyRush", "RangedRush"]

# A name defined in several files goes to the first folder here that has it:
# the field's code before the generic synthesis (hss.c's `search` is not run
# by SA; the DSL layer's is; the match hook `on_decisions` is rts_synth.c's).
PREFERENCE = ["games/microrts/dsl", "games/microrts/synth/rts_synth.c", "games/microrts/synth", "games/microrts/bots", "games/microrts/engine",
              "games/microrts/match", "native/core", "native"]

PARTS = [  # (part, test on the defining file's path)
    ("DSL interpreter", lambda f: "dsl/rts_dsl_interp" in f or "dsl/rts_dsl_compile" in f),
    ("DSL action layer and path searches", lambda f: "microrts/dsl/" in f or f.endswith("core/memo.c")),
    ("match memo", lambda f: "synth/rts_reach" in f),
    ("mayari", lambda f: "bots/mayari" in f),
    ("CoacAI", lambda f: "bots/coac" in f),
    ("the four rushes", lambda f: "bots/rush" in f),
    ("bots' A*, frame and abstraction layer", lambda f: "microrts/bots/" in f),
    ("engine and match loop", lambda f: "microrts/engine/" in f or "microrts/match/" in f
     or f.endswith("synth/rts_synth.c")),
]
DEF = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(")


def definitions():
    """Function name -> the source file that defines it (by PREFERENCE)."""
    found = collections.defaultdict(list)
    for top in ("native", "games/microrts"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if not name.endswith(".c"):
                    continue
                path = os.path.join(d, name)
                rel = os.path.relpath(path, ROOT)
                with open(path, errors="replace") as f:
                    for line in f:
                        m = DEF.match(line)
                        if m and not line.rstrip().endswith(";"):
                            found[m.group(1)].append(rel)

    def rank(rel):
        for k, p in enumerate(PREFERENCE):
            if rel == p or rel.startswith(p + "/"):
                return k
        return len(PREFERENCE)
    return {name: min(files, key=rank) for name, files in found.items()}


def part_of(sym, where):
    base = re.sub(r"\.(lto_priv|part|constprop|isra|cold)(\.\d+)?", "", sym)
    f = where.get(base)
    if f is None:
        return "allocation, copies, other"
    for name, test in PARTS:
        if test(f):
            return name
    return "allocation, copies, other"


def profile(exe, freq, run, tmp, k):
    mp, prog, evals = run
    data = os.path.join(tmp, "perf%d.data" % k)
    cmd = ["perf", "record", "-q", "-F", str(freq), "-o", data, exe, "synth", "--game", "microrts", "--map", mp]
    for o in FIELD:
        cmd += ["--opponent", o]
    cmd += ["--algo", "sa", "--evals", str(evals), "--seed", "1", "--threads", "1", "--tiebreak", "length",
            "--edition", "2023", "--no-harness", "--no-progress", "--no-simplify",
            "-o", os.path.join(tmp, "p%d.ms" % k)]
    if prog:
        cmd += ["--initial", prog]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit("profile_field: %s failed:\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True)
    shares = []
    for line in rep.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            shares.append((float(m.group(1)), m.group(2)))
    return shares


def parse_run(arg):
    m = re.match(r"^([^=@]+)(?:=([^@]+))?(?:@(\d+))?$", arg)
    if not m:
        sys.exit("profile_field: '%s' is not MAP[=PROGRAM][@N]" % arg)
    return m.group(1), m.group(2), int(m.group(3) or 300)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default=os.path.join(ROOT, "build", "bin", "microsynth"))
    ap.add_argument("--freq", type=int, default=799)
    ap.add_argument("--classify", nargs="+", metavar="SYMBOL",
                    help="print the part each symbol (as perf names it) counts in, and stop")
    ap.add_argument("runs", nargs="*", metavar="MAP=PROGRAM@N")
    a = ap.parse_args()
    if a.classify:
        where = definitions()
        for sym in a.classify:
            print("%s: %s" % (sym, part_of(sym, where)))
        return
    if not shutil.which("perf"):
        sys.exit("profile_field: needs perf (Debian: apt-get install linux-perf)")
    if not os.access(a.exe, os.X_OK):
        sys.exit("profile_field: %s is not an executable (build first, or give --exe)" % a.exe)
    runs = [parse_run(x) for x in a.runs] or [
        (m, os.path.join(ROOT, "programs", "microrts", p), n) for m, p, n in DEFAULT_RUNS]
    where = definitions()
    cols = []
    with tempfile.TemporaryDirectory(prefix="microsynth-profile-") as tmp:
        for k, run in enumerate(runs):
            c = collections.Counter()
            for share, sym in profile(a.exe, a.freq, run, tmp, k):
                c[part_of(sym, where)] += share
            cols.append(c)
    names = [p for p, _ in PARTS] + ["allocation, copies, other"]
    heads = [os.path.basename(r[0]).replace(".xml", "") + " (%d)" % r[2] for r in runs]
    print("| part | " + " | ".join(heads) + " |")
    print("|---" * (len(heads) + 1) + "|")
    for n in names:
        print("| " + n + " | " + " | ".join("%.1f%%" % c[n] for c in cols) + " |")
    prog = names[:3]
    print("| program's side | " + " | ".join("%.1f%%" % sum(c[n] for n in prog) for c in cols) + " |")


if __name__ == "__main__":
    main()
