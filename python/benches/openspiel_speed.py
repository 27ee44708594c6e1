"""Time per decision of three MCTS implementations at equal simulations, in self-play games
on one thread: evomcts on its native game, evomcts on OpenSpiel's game through the adapter
(a `pyspiel` state behind the game interface), and OpenSpiel's C++ `MCTSBot` (one random
rollout per leaf). Each is timed over whole games of itself against itself, so all three
decide in positions of the same kind of play. OpenSpiel's figure is the median over games of
the game's time per decision; evomcts's, the extra time of a league with twice the games over
its extra decisions (what a league costs besides its games cancels).

    python python/benches/openspiel_speed.py            # connect_four and pig, as docs/openspiel.md
    python python/benches/openspiel_speed.py --games 4 --quick

evomcts's games are leagues run by the command line in this process (`--threads 1`), timed
from start to tables; OpenSpiel's are a Python loop calling `MCTSBot.step`, timed per call.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Dict, List

import evomcts
from evomcts import _evomcts

# (name, native game in a spec, OpenSpiel game in a spec, pyspiel.load_game argument, sims)
CASES = [
    ("connect_four", "ConnectFour", 'OpenSpiel(name: "connect_four")', "connect_four", 1000),
    ("pig", "Pig(target: 100)", 'OpenSpiel(name: "pig", params: {"winscore": 100})', "pig(winscore=100)", 200),
]


def timed_league(game: str, sims: int, games: int, folder: Path):
    """One league of evomcts's self-play games of `game` at `sims`, `games` per seating on one
    thread: (seconds from start to tables, decisions)."""
    folder.mkdir(parents=True)
    spec = folder / "spec.ron"
    controller = f"Mcts(sims: {sims}, c_e: 0.7071067811865476, reward: WinLoss, final_move: MostVisits)"
    spec.write_text(
        f"""(
    name: "speed",
    game: {game},
    games_per_match: {games},
    seed: 1,
    controllers: [(name: "A", spec: {controller}), (name: "B", spec: {controller})],
)
"""
    )
    out = folder / "run"
    started = time.perf_counter()
    status = _evomcts.main(["evomcts", "league", str(spec), "--out", str(out), "--threads", "1", "--quiet"])
    elapsed = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"the league of {game} failed")
    decisions = sum(
        sum(json.loads(line)["game"]["turns"]) for line in (out / "games.jsonl").read_text().splitlines()
    )
    return elapsed, decisions


def league_ms_per_decision(game: str, sims: int, games: int, folder: Path) -> float:
    """evomcts's time per decision: a league of `games` per seating and one of twice as many
    (the second's games include the first's), the difference in time over the difference in
    decisions, so what a league costs besides its games (start, records, tables) cancels."""
    small = timed_league(game, sims, games, folder / "small")
    large = timed_league(game, sims, 2 * games, folder / "large")
    return 1000 * (large[0] - small[0]) / (large[1] - small[1])


def open_spiel_ms_per_decision(load: str, sims: int, games: int) -> List[float]:
    import random

    import pyspiel

    game = pyspiel.load_game(load)
    per_game = []
    for g in range(games):
        bots = [
            pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 10 * g + p), 2.0, sims, 1000, False, 10 * g + p, False)
            for p in (0, 1)
        ]
        chance = random.Random(g)
        state = game.new_initial_state()
        spent, decisions = 0.0, 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(chance.choices(actions, probs)[0])
                continue
            started = time.perf_counter()
            action = bots[state.current_player()].step(state)
            spent += time.perf_counter() - started
            decisions += 1
            state.apply_action(action)
        per_game.append(1000 * spent / decisions)
    return per_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per implementation and game")
    parser.add_argument("--quick", action="store_true", help="a tenth of the simulations")
    args = parser.parse_args()
    rows = []
    for name, native, through, load, sims in CASES:
        if args.quick:
            sims = max(10, sims // 10)
        with tempfile.TemporaryDirectory() as tmp:
            native_ms = league_ms_per_decision(native, sims, args.games, Path(tmp) / "native")
        with tempfile.TemporaryDirectory() as tmp:
            adapter_ms = league_ms_per_decision(through, sims, args.games, Path(tmp) / "adapter")
        theirs_ms = open_spiel_ms_per_decision(load, sims, args.games)
        row = {
            "game": name,
            "sims": sims,
            "games": args.games,
            "evomcts_native_ms": native_ms,
            "evomcts_adapter_ms": adapter_ms,
            "open_spiel_cpp_ms": statistics.median(theirs_ms),
        }
        row["adapter_over_open_spiel"] = row["evomcts_adapter_ms"] / row["open_spiel_cpp_ms"]
        row["open_spiel_over_native"] = row["open_spiel_cpp_ms"] / row["evomcts_native_ms"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    print()
    print("| game | simulations | evomcts native (ms/decision) | evomcts through the adapter | OpenSpiel's C++ MCTSBot | adapter ÷ OpenSpiel | OpenSpiel ÷ native |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['game']} | {r['sims']} | {r['evomcts_native_ms']:.2f} | {r['evomcts_adapter_ms']:.2f} | "
            f"{r['open_spiel_cpp_ms']:.2f} | {r['adapter_over_open_spiel']:.2f}× | {r['open_spiel_over_native']:.1f}× |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
