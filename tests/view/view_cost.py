#!/usr/bin/env python3
"""What following a synthesis in the browser costs the synthesis (issue 41:
within 2 %). The same seeded synth (an --evals budget, so both arms do the
same work), run alone and with `microsynth view` following its CSV,
checkpoint and --progress-json file while a headless chromium shows the
dashboard, the arms interleaved; per run the synth process's CPU seconds
(/usr/bin/time -f %U) and its evaluations a CPU second. Not a ctest: it
takes minutes (docs/view.md has the figures).

  view_cost.py MICROSYNTH [--evals N] [--rounds R] [--map M] [--opponent B ...]
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Server, find_chromium  # noqa: E402


def synth(exe, a, tmp):
    """One synth under /usr/bin/time: (user seconds, wall seconds, evaluations)."""
    for f in ("s.csv", "s.ckpt", "s.json", "p.ms"):
        if os.path.exists(os.path.join(tmp, f)):
            os.unlink(os.path.join(tmp, f))
    cmd = ["/usr/bin/time", "-f", "cpu_user=%U wall=%e", exe, "synth", "--game", "microrts", "--algo", "sa",
           "--evals", str(a.evals), "--seed", "1", "--threads", "1", "-o", os.path.join(tmp, "p.ms"),
           "--csv", os.path.join(tmp, "s.csv"), "--checkpoint", os.path.join(tmp, "s.ckpt"),
           "--progress-json", os.path.join(tmp, "s.json"), "--no-harness", "--no-progress"]
    for m in a.map:
        cmd += ["--map", m]
    for o in a.opponent or ["WorkerRush", "LightRush"]:
        cmd += ["--opponent", o]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    user = wall = None
    for tok in out.stderr.split():
        if tok.startswith("cpu_user="):
            user = float(tok[9:])
        elif tok.startswith("wall="):
            wall = float(tok[5:])
    evals = int(out.stdout.strip().splitlines()[-1].split("evals=")[1].split()[0])
    return user, wall, evals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--evals", type=int, default=40000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--map", action="append", default=None)
    ap.add_argument("--opponent", action="append")
    a = ap.parse_args()
    a.map = a.map or ["16x16/basesWorkers16x16A.xml"]
    chromium = find_chromium()
    if not chromium:
        print("no chromium")
        return 77
    tmp = tempfile.mkdtemp(prefix="view-cost-")
    rows = []
    try:
        for r in range(a.rounds):
            for arm in ("alone", "view"):
                server = browser = None
                if arm == "view":
                    follow = []
                    for f in ("s.csv", "s.ckpt", "s.json"):
                        follow += ["--follow", os.path.join(tmp, f)]
                    server = Server(a.exe, follow)
                    url = server.url + "?" + urllib.parse.urlencode({"scenario": "synth", "tag": "cost"})
                    browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                                "--no-first-run", "--disable-dev-shm-usage",
                                                f"--user-data-dir={os.path.join(tmp, 'profile')}", url],
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                               start_new_session=True)
                    time.sleep(3)  # the page is up and following before the synthesis starts
                shown = "-"
                try:
                    user, wall, evals = synth(a.exe, a, tmp)
                    if server:  # what the page showed: its first report (the dashboard following the run)
                        shown = server.report("cost", time.time() + 5) or "nothing"
                finally:
                    if browser:
                        os.killpg(browser.pid, signal.SIGTERM)
                        browser.wait()
                    if server:
                        server.stop()
                rows.append((r + 1, arm, user, wall, evals))
                print(f"round={r + 1} arm={arm} cpu_user={user:.2f} wall={wall:.1f} evals={evals} "
                      f"evals_per_cpu_s={evals / user:.1f} page={shown!r}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for arm in ("alone", "view"):
        u = [x[2] for x in rows if x[1] == arm]
        print(f"{arm}: mean cpu_user={sum(u) / len(u):.2f} runs={' '.join(f'{v:.2f}' for v in u)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
