"""evomcts's MCTS against OpenSpiel's own (``pyspiel.MCTSBot``) on an OpenSpiel game, at equal
simulations and the equivalent exploration constant: both seatings of every seed, the same
chance outcomes in both, results appended to a JSON-lines file (rerun to resume).

OpenSpiel's UCT value is ``Q + uct_c * sqrt(ln N / n)`` with Q the mean return in [-1, 1];
evomcts's is ``Q + 2 * C_E * sqrt(2 * ln N / n)``, with Q in [-1, 1] under ``reward: WinLoss``;
so ``C_E = uct_c / (2 * sqrt 2)``. Both: one random rollout per leaf, no solver, the
most-visited move. OpenSpiel's bot: ``MCTSBot(game, RandomRolloutEvaluator(1, seed), uct_c,
sims, max_memory_mb, solve=False, seed, verbose=False)``.

    python python/benches/openspiel_peer.py connect_four --sims 1000 --seeds 500 --out peer/c4.jsonl
    python python/benches/openspiel_peer.py connect_four --selection OpenSpielUct --out peer/c4-rule.jsonl
    python python/benches/openspiel_peer.py --summary peer/c4.jsonl
    python python/benches/openspiel_peer.py backgammon --sims 100 --first-seed 250 --seeds 250 --out peer/bg-2.jsonl

Each line: seed, seating (0: evomcts moves first), evomcts's return, decisions and seconds
of each side. The summary: evomcts's win rate (draws count one half) with a Wilson 95%
interval, the mean per-seed return difference with a 95% interval, a Wilcoxon signed-rank
test and an exact sign test on the per-seed sums of evomcts's returns over both seatings, and
the median time per decision of each side.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from typing import Dict, List, Tuple

SQRT2 = math.sqrt(2.0)


def play(game, params: str, seed: int, seating: int, sims: int, uct_c: float, selection: str) -> Dict:
    import pyspiel
    import evomcts

    c_e = uct_c / (2 * SQRT2)
    ours = evomcts.OpenSpielController(
        f"Mcts(sims: {sims}, c_e: {c_e!r}, reward: WinLoss, final_move: MostVisits, selection: {selection})",
        seed=2 * seed + seating,
    )
    theirs = pyspiel.MCTSBot(
        game,
        pyspiel.RandomRolloutEvaluator(1, 2 * seed + seating),
        uct_c,
        sims,
        1000,
        False,
        2 * seed + seating,
        False,
    )
    chance = random.Random(seed)  # the same outcomes in both seatings while the games agree
    state = game.new_initial_state()
    spent = {"evomcts": [0, 0.0], "open_spiel": [0, 0.0]}
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(chance.choices(actions, probs)[0])
            continue
        side = "evomcts" if state.current_player() == seating else "open_spiel"
        started = time.perf_counter()
        action = ours.step(state) if side == "evomcts" else theirs.step(state)
        spent[side][0] += 1
        spent[side][1] += time.perf_counter() - started
        state.apply_action(action)
    returns = state.returns()
    return {
        "game": params,
        "seed": seed,
        "seating": seating,
        "sims": sims,
        "uct_c": uct_c,
        "selection": selection,
        "evomcts_return": returns[seating],
        "decisions": {k: v[0] for k, v in spent.items()},
        "seconds": {k: v[1] for k, v in spent.items()},
    }


def wilson(wins: float, n: int) -> Tuple[float, float]:
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def wilcoxon(diffs: List[float]) -> float:
    """Two-sided p of the Wilcoxon signed-rank test (zeros dropped, normal approximation
    with the tie correction)."""
    nonzero = [d for d in diffs if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0
    ordered = sorted(nonzero, key=abs)
    ranks = [0.0] * n
    i = 0
    ties = 0.0
    while i < n:
        j = i
        while j + 1 < n and abs(ordered[j + 1]) == abs(ordered[i]):
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    w_plus = sum(r for r, d in zip(ranks, ordered) if d > 0)
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    if var <= 0:
        return 1.0
    z = (abs(w_plus - mean) - 0.5) / math.sqrt(var)
    return max(0.0, min(1.0, math.erfc(max(z, 0.0) / SQRT2)))


def sign_test(diffs: List[float]) -> float:
    """Two-sided p of the exact sign test (zeros dropped)."""
    plus = sum(d > 0 for d in diffs)
    minus = sum(d < 0 for d in diffs)
    m, k = plus + minus, min(plus, minus)
    return min(1.0, 2 * sum(math.comb(m, j) for j in range(k + 1)) / 2**m) if m else 1.0


def summary(paths: List[str]) -> Dict:
    rows = [json.loads(line) for path in paths for line in open(path) if line.strip()]
    by_seed: Dict[int, List[float]] = {}
    for r in rows:
        by_seed.setdefault(r["seed"], []).append(r["evomcts_return"])
    paired = [sum(v) for v in by_seed.values() if len(v) == 2]
    n = len(rows)
    wins = sum(1.0 if r["evomcts_return"] > 0 else 0.5 if r["evomcts_return"] == 0 else 0.0 for r in rows)
    low, high = wilson(wins, n)
    mean = statistics.fmean(paired)
    se = statistics.stdev(paired) / math.sqrt(len(paired)) if len(paired) > 1 else float("nan")

    def per_decision(side: str) -> float:
        times = [r["seconds"][side] / r["decisions"][side] for r in rows if r["decisions"][side]]
        return statistics.median(times)

    return {
        "files": paths,
        "game": rows[0]["game"],
        "sims": rows[0]["sims"],
        "uct_c": rows[0]["uct_c"],
        "selection": rows[0].get("selection", "Uct"),
        "games": n,
        "seeds_paired": len(paired),
        "evomcts_win_rate": wins / n,
        "win_rate_95": [low, high],
        "mean_seed_return_sum": mean,
        "mean_seed_return_sum_95": [mean - 1.96 * se, mean + 1.96 * se],
        "wilcoxon_p": wilcoxon(paired),
        "seeds_won_lost": [sum(d > 0 for d in paired), sum(d < 0 for d in paired)],
        "sign_test_p": sign_test(paired),
        "evomcts_ms_per_decision_median_game": 1000 * per_decision("evomcts"),
        "open_spiel_ms_per_decision_median_game": 1000 * per_decision("open_spiel"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", help="an OpenSpiel game, e.g. connect_four or 'breakthrough(rows=6,columns=6)'")
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seeds", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=0, help="play seeds FIRST .. FIRST+SEEDS-1 (to split a run over processes)")
    parser.add_argument(
        "--selection",
        default="Uct",
        help="evomcts's tree policy: Uct, or OpenSpielUct (a terminal child valued by its outcome alone, as OpenSpiel's)",
    )
    parser.add_argument("--out", help="JSON-lines file of results (appended; rerun to resume)")
    parser.add_argument("--summary", nargs="+", help="print the summary of results files (one run split over several) and stop")
    args = parser.parse_args()
    if args.summary:
        print(json.dumps(summary(args.summary), indent=2))
        return 0
    if not (args.game and args.out):
        parser.error("give a game and --out (or --summary FILE)")
    import pyspiel

    game = pyspiel.load_game(args.game)
    done = set()
    if os.path.exists(args.out):
        for line in open(args.out):
            if line.strip():
                r = json.loads(line)
                done.add((r["seed"], r["seating"]))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    todo = [(s, k) for s in seeds for k in (0, 1) if (s, k) not in done]
    started = time.time()
    with open(args.out, "a") as out:
        for i, (seed, seating) in enumerate(todo):
            row = play(game, args.game, seed, seating, args.sims, args.uct_c, args.selection)
            out.write(json.dumps(row) + "\n")
            out.flush()
            elapsed = time.time() - started
            eta = elapsed / (i + 1) * (len(todo) - i - 1)
            print(f"\r{len(done) + i + 1}/{2 * args.seeds} games, ETA {eta:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)
    print(json.dumps(summary([args.out]), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
