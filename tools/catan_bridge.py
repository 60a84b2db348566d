#!/usr/bin/env python3
"""Plays a microsynth Catan agent inside catanatron 3.2.1's own game loop.

Our player (seat 0 unless --any-seat) is one whose decisions come from `microsynth catan serve`: at each
decision it sends the board (first time), the actions logged since its last
decision (with their chance outcomes) and catanatron's legal list; the engine
replays them on its own copy of the game and answers with an index into that
list. The other seats are catanatron's bots. Needs the venv tools/setup.sh
makes (~/.cache/microsynth/catanatron-3.2.1).

  python catan_bridge.py --microsynth build/bin/microsynth --agent uct:1000 \\
      --opponent WeightedRandomPlayer --games 100 --seed 1

catanatron's stronger players (value function, alpha-beta) live in its repository, not in the
wheel: --opponent-class MODULE:CLASS imports one from PYTHONPATH (a checkout of the repository at
its 3.2.1 release, outside this project), e.g.
  PYTHONPATH=CHECKOUT/catanatron_experimental:CHECKOUT/catanatron_gym python catan_bridge.py ... \\
      --players 2 --alternate --opponent-class \\
      catanatron_experimental.machine_learning.players.minimax:AlphaBetaPlayer

Last line: games=N wins=W win_rate=R illegal=I fallbacks=F seconds=S
"""
import argparse
import importlib
import json
import subprocess
import sys
import time

from catanatron import Color, Game, RandomPlayer
from catanatron.json import GameEncoder
from catanatron.models.map import LandTile, Port, Water
from catanatron.models.player import Player
from catanatron.players.search import VictoryPointPlayer
from catanatron.players.weighted_random import WeightedRandomPlayer

OPPONENTS = {"WeightedRandomPlayer": WeightedRandomPlayer, "RandomPlayer": RandomPlayer,
             "VictoryPointPlayer": VictoryPointPlayer}


def plain(x):
    return json.loads(json.dumps(x, cls=GameEncoder))


def encode(a):
    return [a.color.value, a.action_type.value, plain(a.value)]


def header(state):
    """The board and seating as the engine's reader takes them (no hidden deck order)."""
    tiles = []
    for coord, t in state.board.map.tiles.items():
        e = {"coordinate": list(coord)}
        if isinstance(t, LandTile):
            e.update(type="DESERT" if t.resource is None else "RESOURCE_TILE", resource=t.resource, number=t.number)
        elif isinstance(t, Port):
            e.update(type="PORT", resource=t.resource, direction=t.direction.value)
        elif isinstance(t, Water):
            e["type"] = "WATER"
        e["nodes"] = {k.value: v for k, v in t.nodes.items()}
        tiles.append(e)
    return {"tiles": tiles, "colors": [c.value for c in state.colors]}


class MicrosynthPlayer(Player):
    def __init__(self, color, engine):
        super().__init__(color)
        self.engine = engine
        self.sent = 0
        self.started = False
        self.illegal = 0
        self.fallbacks = 0

    def decide(self, game, playable_actions):
        msg = {"actions": [encode(a) for a in game.state.actions[self.sent:]],
               "legal": [encode(a) for a in playable_actions]}
        if not self.started:
            msg["start"] = header(game.state)
            self.started = True
        self.sent = len(game.state.actions)
        self.engine.stdin.write(json.dumps(msg, separators=(",", ":")) + "\n")
        self.engine.stdin.flush()
        reply = self.engine.stdout.readline()
        if not reply:
            raise RuntimeError("the engine stopped: see its stderr")
        answer = json.loads(reply)
        self.fallbacks = answer.get("fallbacks", 0)
        pick = answer["pick"]
        if not 0 <= pick < len(playable_actions):
            self.illegal += 1
            pick = 0
        return playable_actions[pick]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--microsynth", required=True)
    ap.add_argument("--agent", default="uct:1000")
    ap.add_argument("--opponent", default="WeightedRandomPlayer", choices=sorted(OPPONENTS))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponent-class", help="MODULE:CLASS of a catanatron player on PYTHONPATH (replaces --opponent)")
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--any-seat", action="store_true", help="keep catanatron's drawn seating")
    ap.add_argument("--alternate", action="store_true", help="our seat is game %% players (default: seat 0)")
    args = ap.parse_args()
    opponent = OPPONENTS[args.opponent]
    if args.opponent_class:
        module, _, cls = args.opponent_class.partition(":")
        try:
            opponent = getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError) as e:
            print("catan_bridge: --opponent-class %s: %s" % (args.opponent_class, e), file=sys.stderr)
            return 2
    wins = illegal = fallbacks = 0
    t0 = time.time()
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE][:args.players]
    for g in range(args.games):
        engine = subprocess.Popen([args.microsynth, "catan", "serve", "--agent", args.agent,
                                   "--seed", str(args.seed + g)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        me = MicrosynthPlayer(colors[0], engine)
        players = [me] + [opponent(c) for c in colors[1:]]
        # catanatron draws the seating from the seed: take the first seed (from a
        # per-game base) that puts our player in seat 0 (--alternate: seat g mod
        # players), unless --any-seat.
        base = (args.seed + g) * 1000
        want = g % args.players if args.alternate else 0
        for k in range(1000):
            game = Game(players, seed=base + k)
            if args.any_seat or game.state.colors[want] == colors[0]:
                break
        winner = game.play()
        engine.stdin.close()
        engine.wait()
        wins += winner == colors[0]
        illegal += me.illegal
        fallbacks += me.fallbacks
        print("game=%d seat=%d winner=%s turns=%d" % (g, game.state.colors.index(colors[0]),
              winner.value if winner else None, game.state.num_turns), flush=True)
    n = max(args.games, 1)
    print("games=%d wins=%d win_rate=%.3f illegal=%d fallbacks=%d seconds=%.1f"
          % (args.games, wins, wins / n, illegal, fallbacks, time.time() - t0))
    return 0 if illegal == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
