"""Issue 44's peer check as one resumable process: evomcts's MCTS through
``OpenSpielController`` against ``pyspiel.MCTSBot`` at equal simulations, first on positions
with an immediate win, then in games on several OpenSpiel games, each under both of evomcts's
UCT rules (``OpenSpielUct`` first, then ``Uct``).

1. Immediate wins: positions from seeded random games of each ``--win-games`` game, stopped at
   the first decision where the player to move has a winning move and not every move wins (one
   position per random game). Each position is searched once by evomcts under each rule and by
   OpenSpiel's bot (seeded by the position's index); a side succeeds when it plays a winning
   move. One line per position in ``OUT/immediate-wins-SIMS.jsonl`` (the position is its
   action history).
2. Games: ``openspiel_peer.play`` (the settings of ``openspiel_peer.py``: evomcts with
   ``reward: WinLoss, final_move: MostVisits`` and C_E = uct_c / (2·sqrt 2); OpenSpiel's bot
   with one random rollout, ``solve=False``), seeds interleaved over the games so that a
   partial run covers every game: for each rule, for each seed, for each game, both seatings.
   One line per game in ``OUT/GAME-SIMS[-openspiel-rule].jsonl``, readable by
   ``openspiel_peer.py --summary``.

Every line is appended and flushed when its game or position ends; a rerun skips what its
files hold, so an interrupted run resumes where it stopped.

    python python/benches/openspiel_round.py --sims 400 --seeds 100 --out runs/open-spiel/peer
    python python/benches/openspiel_round.py --summary --sims 400 --out runs/open-spiel/peer
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from typing import Dict, List, Set, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openspiel_peer  # noqa: E402

RULES = ("OpenSpielUct", "Uct")


def rule_file(out: str, game: str, sims: int, selection: str) -> str:
    suffix = "-openspiel-rule" if selection == "OpenSpielUct" else ""
    return os.path.join(out, f"{game}-{sims}{suffix}.jsonl")


def winning_actions(state) -> List[int]:
    """The actions that end the game at once with a win for the player to move."""
    me = state.current_player()
    found = []
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        if after.is_terminal() and after.returns()[me] > 0:
            found.append(a)
    return found


def win_position(game, seed: int):
    """The first decision of a seeded random game where the mover has a winning move and not
    every move wins, with its history and winning moves; None if the game ends without one."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        wins = winning_actions(state)
        if wins and len(wins) < len(state.legal_actions()):
            return state, wins
        state.apply_action(rng.choice(state.legal_actions()))
    return None


def load(path: str) -> List[Dict]:
    if not os.path.exists(path):
        return []
    return [json.loads(line) for line in open(path) if line.strip()]


def immediate_wins(games: List[str], count: int, sims: int, uct_c: float, out: str) -> None:
    import pyspiel
    import evomcts

    path = os.path.join(out, f"immediate-wins-{sims}.jsonl")
    done: Set[Tuple[str, int]] = {(r["game"], r["index"]) for r in load(path)}
    c_e = uct_c / (2 * math.sqrt(2))
    with open(path, "a") as f:
        for name in games:
            game = pyspiel.load_game(name)
            seed = 0
            for index in range(count):
                found = None
                while found is None:
                    found = win_position(game, 1_000_000 + seed)
                    seed += 1
                if (name, index) in done:
                    continue
                state, wins = found
                row = {
                    "game": name,
                    "index": index,
                    "random_game_seed": 1_000_000 + seed - 1,
                    "history": state.history(),
                    "legal": len(state.legal_actions()),
                    "winning": wins,
                    "sims": sims,
                    "uct_c": uct_c,
                }
                for rule in RULES:
                    ours = evomcts.OpenSpielController(
                        f"Mcts(sims: {sims}, c_e: {c_e!r}, reward: WinLoss, final_move: MostVisits, selection: {rule})",
                        seed=index,
                    )
                    row[f"evomcts_{rule}"] = ours.step(state) in wins
                theirs = pyspiel.MCTSBot(
                    game, pyspiel.RandomRolloutEvaluator(1, index), uct_c, sims, 1000, False, index, False
                )
                row["open_spiel"] = theirs.step(state) in wins
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"{name} position {index}: {row}", file=sys.stderr)


def games_round(games: List[str], seeds: int, sims: int, uct_c: float, out: str) -> None:
    import pyspiel

    loaded = {name: pyspiel.load_game(name) for name in games}
    for rule in RULES:
        done = {
            name: {(r["seed"], r["seating"]) for r in load(rule_file(out, name, sims, rule))} for name in games
        }
        for seed in range(seeds):
            for name in games:
                for seating in (0, 1):
                    if (seed, seating) in done[name]:
                        continue
                    started = time.time()
                    row = openspiel_peer.play(loaded[name], name, seed, seating, sims, uct_c, rule)
                    with open(rule_file(out, name, sims, rule), "a") as f:
                        f.write(json.dumps(row) + "\n")
                    print(
                        f"{rule} {name} seed {seed} seating {seating}: evomcts {row['evomcts_return']:+.0f}"
                        f" ({time.time() - started:.0f} s)",
                        file=sys.stderr,
                    )


def wins_summary(path: str) -> Dict:
    rows = load(path)
    table: Dict[str, Dict] = {}
    for name in sorted({r["game"] for r in rows}):
        mine = [r for r in rows if r["game"] == name]
        n = len(mine)
        entry = {"positions": n, "mean_legal": sum(r["legal"] for r in mine) / n}
        for side in [f"evomcts_{rule}" for rule in RULES] + ["open_spiel"]:
            k = sum(r[side] for r in mine)
            entry[side] = [k, [round(x, 3) for x in openspiel_peer.wilson(k, n)]]
        for rule in RULES:
            # McNemar's exact test against OpenSpiel on the discordant positions.
            a = sum(r[f"evomcts_{rule}"] and not r["open_spiel"] for r in mine)
            b = sum(r["open_spiel"] and not r[f"evomcts_{rule}"] for r in mine)
            m, k = a + b, min(a, b)
            p = min(1.0, 2 * sum(math.comb(m, j) for j in range(k + 1)) / 2**m) if m else 1.0
            entry[f"{rule}_only_evomcts_only_open_spiel_mcnemar_p"] = [a, b, p]
        table[name] = entry
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["hex", "othello", "connect_four"])
    parser.add_argument("--win-games", nargs="+", default=["hex", "connect_four", "othello"])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--out", required=True, help="folder of the results files")
    parser.add_argument("--summary", action="store_true", help="print the summaries of what is done and stop")
    args = parser.parse_args()
    if args.summary:
        result = {"immediate_wins": wins_summary(os.path.join(args.out, f"immediate-wins-{args.sims}.jsonl"))}
        for rule in RULES:
            for name in args.games:
                path = rule_file(args.out, name, args.sims, rule)
                if len(load(path)) >= 4:  # two seeds with both seatings
                    result[f"{name} {rule}"] = openspiel_peer.summary([path])
        print(json.dumps(result, indent=2))
        return 0
    os.makedirs(args.out, exist_ok=True)
    immediate_wins(args.win_games, args.positions, args.sims, args.uct_c, args.out)
    games_round(args.games, args.seeds, args.sims, args.uct_c, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
