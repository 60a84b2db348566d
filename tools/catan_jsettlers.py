#!/usr/bin/env python3
"""Our Catan agents against JSettlers robots (issue 43; the thesis's X5, X7, X8).

This is a JSettlers client: it joins a JSettlers server over TCP as a player,
sits in seat 0, starts the game (the server fills the other three seats with
its robots and draws the board and the first player), keeps its own view of
the game from the server's messages and, at each decision, sends that view to
`microsynth catan jsettlers` (games/catan/jsettlers.c), which rebuilds the
state, asks the agent and answers in JSettlers's terms.

What the server hides from a player -- the types of cards others steal or
discard between themselves, the types of others' development cards, the
order of the deck -- is kept as counts (known cards of each type, unknown
cards) and determinized at each decision: an opponent's unknown resource
cards drawn uniformly over the five types, the unseen development cards
(25 less every card played and less our own) dealt at random to the
opponents' hands, the rest forming the deck. See docs/catan.md.

The server and its robots are started from the user's own JSettlers build:
MICROSYNTH_JSETTLERS is its classpath (e.g. /path/JSettlersServer.jar), or
--server HOST:PORT names a server already running with at least 3 robots.
A game that breaks (a protocol error, a declined request loop, no message
for --idle seconds, the engine failing) is counted in `broken`, never dropped.
"""
import argparse
import json
import math
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

# JSettlers message types (SOCMessage) and constants used here.
BOARDLAYOUT, BOARDLAYOUT2, PUTPIECE, SITDOWN, JOINGAME, JOINGAMEAUTH = 1014, 1084, 1009, 1012, 1013, 1021
STARTGAME, LEAVEGAME, PLAYERELEMENT, PLAYERELEMENTS, GAMESTATE, TURN = 1018, 1011, 1024, 1086, 1025, 1026
DICERESULTRESOURCES, DISCARDREQUEST, ROLLDICE, ENDTURN, DISCARD, MOVEROBBER = 1092, 1029, 1031, 1032, 1033, 1034
CHOOSEPLAYER, CHOOSEPLAYERREQUEST, REJECTOFFER, ACCEPTOFFER, BANKTRADE, MAKEOFFER = 1035, 1036, 1037, 1039, 1040, 1041
BUYDEVCARDREQUEST, DEVCARDACTION, PLAYDEVCARDREQUEST, PICKRESOURCES, PICKRESOURCETYPE = 1045, 1046, 1049, 1052, 1053
FIRSTPLAYER, SETTURN, REJECTCONNECTION, GAMESTATS, RESOURCECOUNT, SIMPLEACTION = 1054, 1055, 1059, 1061, 1063, 1090
GAMEELEMENTS, ROBBERYRESULT, DECLINEPLAYERREQUEST, VERSION, SERVERPING = 1096, 1102, 1104, 9998, 9999

CLIENT_VERSION = "9998|2700,2.7.00,microsynth,;,en_US"
# Game states that ask the current player to act (SOCGame).
ACT_STATES = {5, 6, 10, 11, 15, 20, 33, 40, 41}
OVER = 1000
# JSettlers development card codes -> our order (knight, year of plenty, monopoly, road building, VP).
DEV_OURS = {9: 0, 2: 1, 3: 2, 1: 3, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4}
DEV_JS = {0: 9, 1: 2, 2: 3, 3: 1}
DECK = [14, 2, 2, 2, 5]
# The v1 layout's 37 hex coordinates, rows top to bottom (SOCBoard's numToHexID).
HEX_COORDS = [r0 + 0x22 * i for r0, n in ((0x17, 4), (0x15, 5), (0x13, 6), (0x11, 7), (0x31, 6), (0x51, 5), (0x71, 4))
              for i in range(n)]


class Broken(Exception):
    """The game cannot go on; its reason is reported."""


class Conn:
    """JSettlers framing: each message is a Java writeUTF string (2-byte length)."""

    def __init__(self, host, port, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = b""
        self.lock = threading.Lock()

    def send(self, text):
        data = text.encode("utf-8")
        with self.lock:
            self.sock.sendall(struct.pack(">H", len(data)) + data)

    def recv(self, idle):
        self.sock.settimeout(idle)
        while True:
            if len(self.buf) >= 2:
                n = struct.unpack(">H", self.buf[:2])[0]
                if len(self.buf) >= 2 + n:
                    msg = self.buf[2:2 + n].decode("utf-8", "replace")
                    self.buf = self.buf[2 + n:]
                    return msg
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                raise Broken("no message for %d s (a hang)" % idle)
            if not data:
                raise Broken("the server closed the connection")
            self.buf += data

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Engine:
    """`microsynth catan jsettlers`: one process per game (it keeps the agent's move buffer)."""

    def __init__(self, exe, agent, seed):
        self.proc = subprocess.Popen([exe, "catan", "jsettlers", "--agent", agent, "--seed", str(seed)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.decisions = 0
        self.seconds = 0.0

    def ask(self, obj):
        t0 = time.time()
        self.proc.stdin.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        self.seconds += time.time() - t0
        if not line:
            raise Broken("the engine stopped (exit %s)" % self.proc.poll())
        return json.loads(line)

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def split(data):
    """Fields of a message body: `|` (multi-field messages) or `,` separated."""
    return data.split("|") if "|" in data else data.split(",")


class Game:
    """Our view of one game, kept from the server's messages."""

    def __init__(self, name, rng):
        self.name, self.rng = name, rng
        self.me, self.n = 0, 4
        self.first = self.current = -1
        self.state = 0
        self.robber = -1
        self.turns = -1            # turns ended after the setup
        self.longest = self.largest = -1
        self.rolled = False
        self.played_dev = [0] * self.n
        self.pieces = [{"settlements": [], "cities": [], "roads": []} for _ in range(self.n)]
        self.known = [[0] * 5 for _ in range(self.n)]   # clay, ore, sheep, wheat, wood
        self.unknown = [0] * self.n
        self.dev_count = [0] * self.n                    # others' development cards (types hidden)
        self.my_dev = []                                 # [our type, bought this turn]
        self.played = [[0] * 5 for _ in range(self.n)]
        self.deck_left = 25
        self.last_settlement = -1
        self.mismatches = 0        # our own cards as tracked, contradicted by the server (must stay 0)
        self.resyncs = 0           # others' hands whose size the server's count settled (hidden moves)
        self.hex_res = {}          # land hex coordinate -> resource 1-5 (clay..wood), 0 desert
        self.layout = None
        self.scores = None

    # ---- resources: known cards by type plus unknown ones per seat --------
    def gain(self, pn, r, amount):
        if r == 6:
            self.unknown[pn] += amount
        elif 1 <= r <= 5:
            self.known[pn][r - 1] += amount

    def lose(self, pn, r, amount):
        if 1 <= r <= 5:
            k = self.known[pn]
            take = min(k[r - 1], amount)
            k[r - 1] -= take
            self.unknown[pn] = max(0, self.unknown[pn] - (amount - take))
        elif r == 6:
            self.lose_unknown(pn, amount)

    def lose_unknown(self, pn, amount):
        """`amount` cards of types we do not see: a type of which c were known
        keeps at least c - amount; the rest of the hand becomes unknown."""
        total = sum(self.known[pn]) + self.unknown[pn] - amount
        self.known[pn] = [max(0, c - amount) for c in self.known[pn]]
        self.unknown[pn] = max(0, total - sum(self.known[pn]))

    def set_res(self, pn, r, amount, news=False):
        # a SET with news is a change (Monopoly taking a type), not a statement of what we held
        if pn == self.me and 1 <= r <= 5 and self.known[pn][r - 1] != amount and not news:
            self.mismatches += 1
        if r == 6:
            self.unknown[pn] = amount
        elif 1 <= r <= 5:
            self.known[pn][r - 1] = amount

    def total(self, pn, count):
        """The server's count of a hand settles the unknown part."""
        known = sum(self.known[pn])
        if count != known + self.unknown[pn]:
            self.resyncs += 1
        if count < known:
            self.lose_unknown(pn, known - count)
            self.unknown[pn] = 0
        else:
            self.unknown[pn] = count - known

    # ---- the snapshot for the engine, hidden cards determinized -----------
    def snapshot(self):
        pool = list(DECK)
        for pn in range(self.n):
            for t in range(5):
                pool[t] -= self.played[pn][t]
        for t, _ in self.my_dev:
            pool[t] -= 1
        cards = [t for t in range(5) for _ in range(max(0, pool[t]))]
        self.rng.shuffle(cards)
        players = []
        for pn in range(self.n):
            res = list(self.known[pn])
            dev, dev_new = [0] * 5, [0] * 5
            if pn == self.me:
                for t, new in self.my_dev:
                    dev[t] += 1
                    dev_new[t] += 1 if new else 0
            else:
                for _ in range(self.unknown[pn]):
                    res[self.rng.randrange(5)] += 1
                for _ in range(self.dev_count[pn]):
                    if cards:
                        dev[cards.pop()] += 1
            p = dict(self.pieces[pn])
            p.update(res=res, dev=dev, dev_new=dev_new, played=self.played[pn])
            players.append(p)
        deck = [0] * 5
        for t in cards:
            deck[t] += 1
        return {"first": self.first, "me": self.me, "current": self.current, "state": self.state,
                "rolled": 1 if self.rolled else 0, "played_dev": self.played_dev[self.current],
                "robber": self.robber, "turns": max(0, self.turns), "longest": self.longest,
                "largest": self.largest, "last_settlement": self.last_settlement, "deck": deck,
                "players": players}


class Client:
    """One game against the server's robots: join, sit, start, play to the end."""

    def __init__(self, args, host, port, index):
        self.args, self.index = args, index
        self.nick = "ms%d_%d" % (os.getpid() % 10000, index)
        self.gname = "ms%d_%d_g%d" % (os.getpid() % 10000, args.seed, index)
        seed = args.seed * 1000 + index
        self.g = Game(self.gname, random.Random(seed))
        self.engine = Engine(args.microsynth, args.agent, seed)
        self.conn = Conn(host, port, 30)
        self.waiting = False       # we sent an action and its answer has not come
        self.victim = -1
        self.pick = None           # year of plenty or monopoly choice, sent when asked
        self.declined = 0
        self.started = self.last_news = time.time()
        self.trace = open(os.path.join(args.trace, self.gname + ".txt"), "w") if args.trace else None

    def send(self, *fields):
        msg = str(fields[0]) + "|" + ",".join(str(f) for f in fields[1:])
        if self.trace:
            self.trace.write("> %s\n" % msg)
        self.conn.send(msg)

    def play(self):
        g, a = self.g, self.args
        self.conn.send(CLIENT_VERSION)
        self.send(JOINGAME, self.nick, "\t", "localhost", self.gname)
        while g.state != OVER or g.scores is None:
            if time.time() - self.started > a.game_timeout:
                raise Broken("the game took over %d s" % a.game_timeout)
            msg = self.conn.recv(a.idle)
            if self.trace:
                self.trace.write("< %s\n" % msg)
            bar = msg.find("|")
            mtype, data = (int(msg[:bar]), msg[bar + 1:]) if bar > 0 else (int(msg), "")
            # pings and news of other games keep a connection alive, not our game: a hang is measured without them
            if data.split("|", 1)[0].split(",", 1)[0] == self.gname:
                self.last_news = time.time()
            elif time.time() - self.last_news > a.idle:
                raise Broken("no game message for %d s (a hang)" % a.idle)
            self.handle(mtype, data)
        self.send(LEAVEGAME, self.nick, "-", self.gname)
        scores = g.scores
        winner = max(range(g.n), key=lambda p: scores[p])
        return {"winner": winner, "me": g.me, "won": winner == g.me, "vp": scores, "turns": g.turns,
                "first": g.first, "decisions": self.engine.decisions, "engine_s": round(self.engine.seconds, 2),
                "declined": self.declined, "mismatches": g.mismatches, "resyncs": g.resyncs}

    # ---- the server's messages ----------------------------------------------
    def handle(self, mtype, data):
        g = self.g
        f = split(data)
        if mtype == REJECTCONNECTION:
            raise Broken("the server refused us: " + data)
        if mtype == SERVERPING:
            self.conn.send("%d|%s" % (mtype, data))
        elif mtype == JOINGAMEAUTH and f[0] == self.gname:
            self.send(SITDOWN, self.gname, self.nick, g.me, "false")
        elif mtype == SITDOWN and len(f) >= 3 and f[1] == self.nick:
            self.send(STARTGAME, self.gname)
        elif mtype == BOARDLAYOUT:
            g.layout = "%d|%s" % (mtype, data)
            g.robber = int(f[-1])
            for i, coord in enumerate(HEX_COORDS):
                if 0 <= int(f[1 + i]) <= 5:
                    g.hex_res[coord] = int(f[1 + i])
            self.engine.ask({"layout": g.layout})
        elif mtype == BOARDLAYOUT2:
            raise Broken("a BOARDLAYOUT2 board (not the classic 4-player board)")
        elif mtype in (PLAYERELEMENT, PLAYERELEMENTS):
            self.elements(mtype, f)
        elif mtype == GAMEELEMENTS:
            for i in range(1, len(f) - 1, 2):
                t, v = int(f[i]), int(f[i + 1])
                if t == 2:
                    g.deck_left = v
                elif t == 3:
                    g.first = v
                elif t == 4:
                    g.current = v
                elif t == 5:
                    g.largest = v
                elif t == 6:
                    g.longest = v
        elif mtype == FIRSTPLAYER:
            g.first = int(f[1])
        elif mtype == SETTURN:
            g.current = int(f[1])
        elif mtype == TURN:
            self.turn(int(f[1]), int(f[2]) if len(f) > 2 else g.state)
        elif mtype == GAMESTATE:
            g.state = int(f[1])
            if g.state == 20:
                g.rolled = True
            self.waiting = False
            self.maybe_act()
        elif mtype == PUTPIECE:
            self.put_piece(int(f[1]), int(f[2]), int(f[3]))
        elif mtype == MOVEROBBER:
            if int(f[2]) > 0:
                g.robber = int(f[2])
        else:
            self.trade_and_cards(mtype, f)

    def turn(self, pn, state):
        g = self.g
        if g.first < 0 and state == 5:   # START1A: the server's first player places first
            g.first = pn
        if pn != g.current or state == 15:
            g.rolled = False
            g.played_dev = [0] * g.n
            g.my_dev = [[t, False] for t, _ in g.my_dev]
        g.current, g.state = pn, state
        if state == 15:
            g.turns += 1
        self.waiting = False
        self.maybe_act()

    def put_piece(self, pn, ptype, coord):
        pieces = self.g.pieces[pn]
        if ptype == 0:
            pieces["roads"].append(coord)
        elif ptype == 1:
            pieces["settlements"].append(coord)
            if pn == self.g.me:
                self.g.last_settlement = coord
            if self.g.state == 10:    # START2A: the second settlement pays its hexes (no message says so)
                for corner in (0x01, 0x12, 0x21, 0x10, -0x01, -0x10):
                    r = self.g.hex_res.get(coord - corner, 0)
                    if r:
                        self.g.gain(pn, r, 1)
        elif ptype == 2:
            if coord in pieces["settlements"]:
                pieces["settlements"].remove(coord)
            pieces["cities"].append(coord)

    def elements(self, mtype, f):
        g = self.g
        pn, news, action = int(f[1]), int(f[2]) < 0, abs(int(f[2]))
        pairs = [(int(f[3]), int(f[4]))] if mtype == PLAYERELEMENT else \
            [(int(f[i]), int(f[i + 1])) for i in range(3, len(f) - 1, 2)]
        for etype, amount in pairs:
            for p in (range(g.n) if pn < 0 else [pn]):
                if 1 <= etype <= 6 and action == 100:
                    g.set_res(p, etype, amount, news)
                elif 1 <= etype <= 6:
                    {101: g.gain, 102: g.lose}[action](p, etype, amount)
                elif etype == 17 and action == 100:
                    g.total(p, amount)
                elif etype == 19:
                    g.played_dev[p] = amount if action == 100 else g.played_dev[p]

    def trade_and_cards(self, mtype, f):
        g = self.g
        if mtype == DICERESULTRESOURCES:
            i = 2
            for _ in range(int(f[1])):
                pn, total = int(f[i]), int(f[i + 1])
                i += 2
                while i + 1 < len(f) and int(f[i]) != 0:
                    g.gain(pn, int(f[i + 1]), int(f[i]))
                    i += 2
                i += 1
                g.total(pn, total)
        elif mtype == RESOURCECOUNT:
            g.total(int(f[1]), int(f[2]))
        elif mtype == DEVCARDACTION:
            self.dev_card(int(f[1]), int(f[2]), [int(x) for x in f[3:]])
        elif mtype == SIMPLEACTION and int(f[2]) == 1:
            g.deck_left = int(f[3])
        elif mtype == ROBBERYRESULT and f[3] == "R" and f[6] == "T":
            perp, victim, r, amount = int(f[1]), int(f[2]), int(f[4]), int(f[5])
            g.lose(victim, r, amount)
            g.gain(perp, r, amount)
        elif mtype == DISCARD and f[1].startswith("p"):
            pn = int(f[1][1:])
            for r in range(1, 7):
                g.lose(pn, r, int(f[1 + r]))
        elif mtype == PICKRESOURCES and len(f) >= 8:
            for r in range(1, 6):
                g.gain(int(f[6]), r, int(f[r]))
        elif mtype == BANKTRADE and len(f) >= 12:
            pn = int(f[11])
            for r in range(1, 6):
                g.lose(pn, r, int(f[r]))
                g.gain(pn, r, int(f[5 + r]))
            if pn == g.me:
                self.waiting = False
                self.maybe_act()
        elif mtype == ACCEPTOFFER and len(f) >= 13:
            acc, off = int(f[1]), int(f[2])
            for r in range(1, 6):
                to_acc, to_off = int(f[2 + r]), int(f[7 + r])
                g.lose(off, r, to_acc)
                g.gain(acc, r, to_acc)
                g.lose(acc, r, to_off)
                g.gain(off, r, to_off)
        elif mtype == MAKEOFFER and len(f) >= 2 + g.n and f[2 + g.me] == "true":
            self.send(REJECTOFFER, self.gname, g.me)
        elif mtype == DISCARDREQUEST:
            self.decide(discard=True)
        elif mtype == CHOOSEPLAYERREQUEST:
            choices = [x == "true" for x in f[1:] if x != "NONE"]
            victim = self.victim if 0 <= self.victim < len(choices) and choices[self.victim] else choices.index(True)
            self.send(CHOOSEPLAYER, self.gname, victim)
        elif mtype == DECLINEPLAYERREQUEST:
            self.declined_request()
        elif mtype == GAMESTATS and not f[1].startswith("t"):
            g.scores = [int(x) for x in f[1:1 + g.n]]

    def dev_card(self, pn, action, types):
        g = self.g
        for t in types:
            ours = DEV_OURS.get(t)
            if action == 4:            # CANNOT_PLAY
                self.declined_request()
            elif g.state == OVER:
                continue
            elif action in (0, 2, 3):  # DRAW, ADD_NEW, ADD_OLD
                if pn == g.me and ours is not None:
                    g.my_dev.append([ours, action != 3])
                elif pn != g.me:
                    g.dev_count[pn] += 1
                if action == 3 and ours == 3:   # a cancelled Road Building comes back
                    g.played[pn][3] = max(0, g.played[pn][3] - 1)
            elif action in (1, 5, 6):  # PLAY, REMOVE_NEW, REMOVE_OLD
                if pn == g.me:
                    held = [c for c in g.my_dev if c[0] == ours]
                    old = [c for c in held if not c[1]]
                    if held:
                        g.my_dev.remove((old or held)[0])
                else:
                    g.dev_count[pn] = max(0, g.dev_count[pn] - 1)
                if action == 1 and ours is not None:
                    g.played[pn][ours] += 1

    # ---- our decisions --------------------------------------------------------
    def declined_request(self):
        self.declined += 1
        if self.declined > self.args.max_declined:
            raise Broken("the server declined %d of our requests" % self.declined)
        g = self.g
        self.waiting = False
        if g.current == g.me and g.state == 20:
            self.send(ENDTURN, self.gname)
            self.waiting = True
        elif g.current == g.me and g.state == 15:
            self.send(ROLLDICE, self.gname)
            self.waiting = True

    def maybe_act(self):
        g = self.g
        if self.waiting or g.current != g.me or g.layout is None:
            return
        if g.state == 52 and self.pick is not None:       # WAITING_FOR_DISCOVERY
            self.send(PICKRESOURCES, self.gname, *self.pick)
            self.pick, self.waiting = None, True
        elif g.state == 53 and self.pick is not None:     # WAITING_FOR_MONOPOLY
            self.send(PICKRESOURCETYPE, self.gname, self.pick)
            self.pick, self.waiting = None, True
        elif g.state in ACT_STATES:
            self.decide()

    def decide(self, discard=False):
        g = self.g
        snap = g.snapshot()
        if discard:
            snap["state"] = 50
        ans = self.engine.ask(snap)
        self.engine.decisions += 1
        self.act(ans)

    def act(self, ans):
        g, name, what = self.g, self.gname, ans.get("do")
        self.waiting = True
        if what == "roll":
            self.send(ROLLDICE, name)
        elif what in ("end", "none"):
            self.send(ENDTURN, name)
        elif what == "buy":
            self.send(BUYDEVCARDREQUEST, name)
        elif what in ("road", "settlement", "city"):
            self.send(PUTPIECE, name, g.me, ("road", "settlement", "city").index(what), ans["coord"])
        elif what == "robber":
            self.victim = ans.get("victim", -1)
            self.send(MOVEROBBER, name, g.me, ans["coord"])
        elif what == "discard":
            self.send(DISCARD, name, *(ans["res"] + [0]))
            self.waiting = False          # others may still be discarding: the next state says
        elif what in ("knight", "yop", "monopoly", "roadbuilding"):
            code = {"knight": 9, "yop": 2, "monopoly": 3, "roadbuilding": 1}[what]
            self.pick = ans.get("res")
            self.send(PLAYDEVCARDREQUEST, name, code)
        elif what == "trade":
            self.send(BANKTRADE, name, *(ans["give"] + ans["get"]))
        else:
            raise Broken("the engine answered %r" % ans)


def wilson(wins, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def start_server(classpath, robots, workdir):
    """The user's JSettlers build: its server (no built-in robots) and `robots`
    robot clients as separate processes, on a free local port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cookie = "ms%d" % random.randrange(10 ** 9)
    log = open(os.path.join(workdir, "server.log"), "w")
    procs = [subprocess.Popen(["java", "-cp", classpath, "soc.server.SOCServer", "-Djsettlers.startrobots=0",
                               "-Djsettlers.bots.cookie=" + cookie, str(port), "50"],
                              stdout=log, stderr=subprocess.STDOUT, cwd=workdir)]
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            break
        except OSError:
            if procs[0].poll() is not None:
                raise SystemExit("catan_jsettlers: the JSettlers server stopped; see %s/server.log" % workdir)
            time.sleep(0.5)
    for i in range(robots):
        rlog = open(os.path.join(workdir, "robot%d.log" % (i + 1)), "w")
        # "droid" names get the server's default robot parameters (SOCServer.ROBOT_PARAMS_DEFAULT)
        procs.append(subprocess.Popen(["java", "-cp", classpath, "soc.robot.SOCRobotClient", "127.0.0.1", str(port),
                                       "droid %d" % (i + 1), "", cookie],
                                      stdout=rlog, stderr=subprocess.STDOUT, cwd=workdir))
    while time.time() < deadline:
        with open(os.path.join(workdir, "server.log")) as f:
            if f.read().count("Robot arrived") >= robots:
                return port, procs
        time.sleep(0.5)
    raise SystemExit("catan_jsettlers: the robots did not arrive; see %s" % workdir)


STOP = threading.Event()


def stop(*_):
    STOP.set()
    sys.exit(143)


def run_one(args, host, port, index, results, lock):
    client = None
    try:
        client = Client(args, host, port, index)
        res = client.play()
    except (Broken, OSError, ValueError, IndexError, KeyError) as e:
        # a game cut by the user's stop is not a broken game: it is reported apart
        res = {"stopped" if STOP.is_set() else "broken": "%s: %s" % (type(e).__name__, e)}
    finally:
        if client:
            client.conn.close()
            client.engine.close()
            if client.trace:
                client.trace.close()
    res["game"] = index
    res["seconds"] = round(time.time() - (client.started if client else time.time()), 1)
    with lock:
        results.append(res)
        if args.log:
            with open(args.log, "a") as f:
                f.write(json.dumps(res) + "\n")
        print(json.dumps(res), file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--microsynth", help="path of the microsynth executable")
    ap.add_argument("--agent", default="uct:1000")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=1, help="games played at once (robots pause between moves)")
    ap.add_argument("--server", help="HOST:PORT of a running server with >= 3 robots (else MICROSYNTH_JSETTLERS)")
    ap.add_argument("--idle", type=int, default=180, help="seconds without a message that count as a hang")
    ap.add_argument("--game-timeout", type=int, default=3600)
    ap.add_argument("--max-declined", type=int, default=30)
    ap.add_argument("--log", help="append one JSON line per game here")
    ap.add_argument("--trace", help="write each game's messages to a file in this folder")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any request was declined")
    ap.add_argument("--summarize", metavar="LOG", help="only print the summary line of a --log file")
    args = ap.parse_args()
    if args.summarize:
        with open(args.summarize) as f:
            summary([json.loads(line) for line in f if line.strip()], 0.0)
        return 0
    if not args.microsynth:
        ap.error("--microsynth is needed to play")
    procs = []
    # a stop (TERM or INT) still stops the server, the robots and the engines (the finally below)
    signal.signal(signal.SIGTERM, stop)
    if args.server:
        host, port = args.server.rsplit(":", 1)
        port = int(port)
    else:
        cp = os.environ.get("MICROSYNTH_JSETTLERS")
        if not cp:
            print("catan_jsettlers: skipped: set MICROSYNTH_JSETTLERS to your JSettlers build's classpath "
                  "(e.g. /path/JSettlersServer.jar) or pass --server HOST:PORT", file=sys.stderr)
            return 77
        host, (port, procs) = "127.0.0.1", start_server(cp, 3, tempfile.mkdtemp(prefix="jsettlers-"))
    results, lock, t0 = [], threading.Lock(), time.time()
    try:
        next_game = iter(range(args.games))
        def worker():
            for i in next_game:
                if STOP.is_set():
                    break
                run_one(args, host, port, i, results, lock)
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, args.parallel))]
        for t in threads:
            t.start()
            time.sleep(1)
        for t in threads:
            while t.is_alive():
                t.join(1)
    except KeyboardInterrupt:
        STOP.set()
        raise
    finally:
        STOP.set()
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
    summary(results, time.time() - t0)
    done = [r for r in results if "won" in r]
    declined = sum(r.get("declined", 0) for r in done)
    return 0 if len(done) == args.games and not (args.strict and declined) else 1


def summary(results, secs):
    """The run's line: wins over the games that finished, the 95 % Wilson interval, broken games."""
    done = [r for r in results if "won" in r]
    wins = sum(1 for r in done if r["won"])
    lo, hi = wilson(wins, len(done))
    won = [r["turns"] for r in done if r["won"]]
    stopped = sum(1 for r in results if "stopped" in r)
    print("games=%d finished=%d wins=%d win_rate=%.3f ci95=%.3f-%.3f broken=%d stopped=%d declined=%d mismatches=%d "
          "mean_vp=%.2f mean_turns_to_win=%.1f seconds=%.1f seconds_per_game=%.1f"
          % (len(results), len(done), wins, wins / len(done) if done else 0.0, lo, hi,
             len(results) - len(done) - stopped, stopped,
             sum(r.get("declined", 0) for r in done), sum(r.get("mismatches", 0) for r in done),
             sum(r["vp"][r["me"]] for r in done) / max(1, len(done)), sum(won) / max(1, len(won)), secs,
             sum(r["seconds"] for r in done) / max(1, len(done))))


if __name__ == "__main__":
    sys.exit(main())
