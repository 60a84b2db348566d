#!/usr/bin/env python3
"""The browser view in a real browser: Debian's chromium, headless, loads the
page served by `microsynth view` and runs scripted scenarios (URL parameters,
tools/view/view.js); each scenario's outcome is written into the page's DOM
and reported back over its websocket, which the server prints on stdout
("report client=N TAG STATE TEXT"), where this script reads it. Checks:

  live     a match between two native bots on an 8x8 map ends with the winner
           and cycle count `microsynth play` prints for the same match;
  program  the same for a program against a native bot;
  replay   an official trace shown at chosen cycles: every unit (id, type,
           owner, cell, hit points) as the trace records it at that cycle;
  synth    the dashboard following a synthesis's CSV log and checkpoint shows
           its evaluations and best score as the CSV's last line has them, the
           best program's W/D/L per opponent as its --progress-json file has
           them (summing to synth's final wins, draws, losses), and a
           self-play's iterations as its --csv has them, with its program;
  results  --results DIR: a CSV table rendered as an HTML table (its rows and
           columns) and an SVG plot shown as an image;
  bad      a malformed message gets an error on the page, and the server goes
           on serving (the scenarios after it pass).

Exit 0 when all hold, 1 when one fails, 77 (skip) without chromium or without
the shared reference data (a failure instead when CI is set).
  browser_test.py MICROSYNTH --shared DIR [--program FILE] [--figures DIR]
"""
import argparse
import json
import os
import re
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
import zipfile

SKIP = 77
TIMEOUT = 40  # seconds for one scenario


def skip(why):
    if os.environ.get("CI"):
        print(f"FAIL: {why} (CI is set: nothing may be skipped)")
        sys.exit(1)
    print(f"skipped: {why}")
    sys.exit(SKIP)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class Server:
    """`microsynth view --port 0`, its stdout read line by line on a thread."""

    def __init__(self, exe, args):
        self.proc = subprocess.Popen([exe, "view", "--port", "0", "--quiet"] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://"):
            raise RuntimeError(f"view printed {self.url!r}, not an address: {self.proc.stderr.read()}")
        threading.Thread(target=self._read, daemon=True).start()
        self.err = []
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def _read_err(self):
        for line in self.proc.stderr:
            self.err.append(line.rstrip("\n"))

    def report(self, tag, deadline):
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[0] == "report" and parts[2] == tag:
                return parts[3] if len(parts) > 3 else ""
        return None

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Browser:
    def __init__(self, chromium, profile):
        self.chromium = chromium
        self.profile = profile

    def run(self, server, tag, **scenario):
        """Opens the page with the scenario, waits for its report, closes the browser."""
        scenario["tag"] = tag
        url = server.url + "?" + urllib.parse.urlencode(scenario)
        proc = subprocess.Popen([self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                 "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", url],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            return server.report(tag, time.time() + TIMEOUT)
        finally:
            # the browser and its helpers are one process group, ours
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()

    def screenshot(self, server, out, **scenario):
        url = server.url + "?" + urllib.parse.urlencode(scenario)
        subprocess.run([self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={self.profile}", "--window-size=1280,800", "--virtual-time-budget=20000",
                        f"--screenshot={out}", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=TIMEOUT)


def play(exe, map_path, p0, p1):
    out = subprocess.run([exe, "play", "--map", map_path, "--p0", p0, "--p1", p1], capture_output=True, text=True,
                         timeout=TIMEOUT)
    return out.stdout.strip().splitlines()[-1]


def trace_entries(path):
    """time -> units "id,type,player,x,y,hp" in list order, for times one entry alone has."""
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read(z.namelist()[0]))
    seen, out = {}, {}
    for e in root.iter("rts.TraceEntry"):
        t = int(e.get("time"))
        seen[t] = seen.get(t, 0) + 1
        units = [f'{u.get("ID")},{u.get("type")},{u.get("player")},{u.get("x")},{u.get("y")},{u.get("hitpoints")}'
                 for u in e.find("rts.PhysicalGameState").find("units").iter("rts.units.Unit")]
        out[t] = ";".join(units)
    return {t: u for t, u in out.items() if seen[t] == 1}


def check(name, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--shared", required=True)
    ap.add_argument("--program")
    ap.add_argument("--figures")
    ap.add_argument("--mpirun", help="with MPI in the build: a synthesis on 2 ranks shows rank 1's tasks")
    a = ap.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("skipped: no chromium (tools/setup.sh installs Debian's)")
        return SKIP
    maps = os.path.join(a.shared, "data", "microrts", "maps")
    trace = os.path.join(a.shared, "data", "microrts", "traces", "8x8", "basesWorkers8x8A",
                         "LightRush_AStarPathFinding_", "trace_0.zip")
    if not os.path.isdir(maps) or not os.path.isfile(trace):
        skip(f"{trace} is absent (../shared holds the reference data)")
    map8 = os.path.join(maps, "8x8", "basesWorkers8x8A.xml")
    tmp = tempfile.mkdtemp(prefix="view-browser-")
    ok = True
    server = None
    try:
        # a finished synthesis for the dashboard: its CSV and checkpoint
        csv, ckpt, pj = (os.path.join(tmp, f) for f in ("s.csv", "s.ckpt", "s.json"))
        synth = subprocess.run([a.exe, "synth", "--game", "microrts", "--map", map8, "--opponent", "WorkerRush",
                                "--opponent", "LightRush", "--algo", "sa", "--evals", "40", "--seed", "1", "-o",
                                os.path.join(tmp, "p.ms"), "--csv", csv, "--checkpoint", ckpt, "--progress-json", pj,
                                "--no-harness", "--no-progress"], check=True, capture_output=True, text=True,
                               timeout=TIMEOUT)
        # a self-play loop's files: its --csv and its program (-o, rewritten each iteration)
        sp_csv, sp_out = os.path.join(tmp, "sp.csv"), os.path.join(tmp, "sp.ms")
        subprocess.run([a.exe, "selfplay", "--game", "microrts", "--loop", "ibr", "--br", "sa", "--iterations", "2",
                        "--evals", "10", "--seed", "1", "-o", sp_out, "--csv", sp_csv, "--map", map8, "--opponent",
                        "WorkerRush", "--no-progress"], check=True, capture_output=True, timeout=TIMEOUT)
        # league/evaluate output: a table and a plot
        res = os.path.join(tmp, "results")
        os.makedirs(res)
        with open(os.path.join(res, "ranking.csv"), "w") as f:
            f.write('program,score,games\n"a, b",0.75,8\nc,0.25,8\n')
        with open(os.path.join(res, "plot.svg"), "w") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>\n')
        server = Server(a.exe, ["--follow", csv, "--follow", ckpt, "--follow", pj, "--follow", sp_csv, "--follow",
                                sp_out, "--results", res])
        browser = Browser(chromium, os.path.join(tmp, "profile"))

        want = play(a.exe, map8, "WorkerRush", "LightRush")
        got = browser.run(server, "live", scenario="live", map=map8, p0="WorkerRush", p1="LightRush")
        ok &= check("live", got == f"done {want}", f"page {got!r}, play {want!r}")

        if a.program:
            spec = "program:" + a.program
            want = play(a.exe, map8, spec, "CoacAI")
            got = browser.run(server, "program", scenario="live", map=map8, p0=spec, p1="CoacAI")
            ok &= check("program", got == f"done {want}", f"page {got!r}, play {want!r}")

        got = browser.run(server, "bad", scenario="bad")
        ok &= check("bad", got is not None and got.startswith("error error=bad message"), f"page {got!r}")

        entries = trace_entries(trace)
        times = sorted(entries)
        for t in (times[len(times) // 3], times[2 * len(times) // 3], times[-1]):
            got = browser.run(server, f"replay{t}", scenario="replay", path=trace, cycle=t)
            want = f"done time={t} units={entries[t]}"
            ok &= check(f"replay at cycle {t}", got == want, f"page {got!r}" if got != want else want)

        last = open(csv).read().strip().splitlines()[-1].split(",")
        got = browser.run(server, "synth", scenario="synth")
        want = f"done evals={int(last[3])} best={float(last[1]):.6f}"
        ok &= check("synth", got is not None and got.startswith(want), f"page {got!r}, CSV {want!r}")
        # W/D/L per opponent: the progress file's last line, and the final result synth printed is their sum
        head, *lines = [json.loads(l) for l in open(pj)]
        vs = lines[-1]["vs"]
        want_wdl = ",".join(f"{n}:{w}/{d}/{l}" for n, (w, d, l) in zip(head["opponents"], vs))
        total = re.search(r"wins=(\d+) draws=(\d+) losses=(\d+)", synth.stdout).groups()
        sums = tuple(str(sum(v[i] for v in vs)) for i in range(3))
        ok &= check("synth W/D/L", got is not None and f" wdl={want_wdl} " in got + " " and sums == total
                    and " eta=known" in got, f"page {got!r}, progress {want_wdl!r}, synth {total}")
        sp_last = open(sp_csv).read().strip().splitlines()[-1].split(",")
        want_sp = f"iterations={int(sp_last[0]) + 1} last_psi={float(sp_last[2]):.6f} outputs=1"
        ok &= check("selfplay", got is not None and want_sp in got, f"page {got!r}, CSV {want_sp!r}")

        if a.mpirun:
            # the same synthesis on 2 ranks: rank 1's tasks on the page as the progress file's last line has them
            mpj = os.path.join(tmp, "mpi.json")
            subprocess.run([a.mpirun, "--oversubscribe", "-np", "2", a.exe, "synth", "--game", "microrts", "--map",
                            map8, "--opponent", "WorkerRush", "--algo", "sa", "--evals", "40", "--seed", "1", "-o",
                            os.path.join(tmp, "mpi.ms"), "--progress-json", mpj, "--no-harness", "--no-progress"],
                           check=True, capture_output=True, text=True, timeout=TIMEOUT,
                           env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
            ranks = json.loads(open(mpj).read().strip().splitlines()[-1])["ranks"]
            want_ranks = " ranks=" + ",".join(f"{r}:{t}" for r, t, _ in ranks)
            mserver = Server(a.exe, ["--follow", mpj])
            try:
                got = browser.run(mserver, "mpi", scenario="synth")
            finally:
                mserver.stop()
            ok &= check("synth under MPI", got is not None and want_ranks in got and len(ranks) == 1 and ranks[0][1] > 0,
                        f"page {got!r}, progress {want_ranks!r}")

        got = browser.run(server, "results-csv", scenario="results", name="ranking.csv")
        want = "done name=ranking.csv kind=csv rows=3 cols=3 first=a, b"
        ok &= check("results table", got == want, f"page {got!r}, want {want!r}")
        got = browser.run(server, "results-svg", scenario="results", name="plot.svg")
        ok &= check("results plot", got is not None and got.startswith("done name=plot.svg kind=svg"), f"page {got!r}")

        if a.figures and a.program:
            # a still (the page stops at cycle 51, where two lines fire), so the virtual-time race cannot
            # cut it short; the map by its harness name, so no machine path shows
            os.makedirs(a.figures, exist_ok=True)
            browser.screenshot(server, os.path.join(a.figures, "view-match.png"), scenario="live",
                               map="8x8/basesWorkers8x8A.xml", p0="program:" + a.program, p1="CoacAI", at=51)
    finally:
        if server:
            server.stop()
            if server.err:
                print("server log:\n  " + "\n  ".join(server.err[-20:]))
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
