"""Random games from Python, beside `evomcts bench engine`: games per second, median of repeats.

Three ways, each over the same tile seeds (seed, seed + 1, ...):

- per_move_python_choice: `Game` driven one call per move, the move chosen in Python
  (`random.choice(game.legal_moves())`, then `game.apply(move)`): an agent's loop;
- per_move_engine_choice: one call per move, the random move chosen by the engine
  (`game.apply_random(seed)`);
- per_game: one call per whole game (`evomcts.random_game`), the loop `evomcts bench engine`
  times.

Usage: python python/benches/random_games.py [--games N] [--repeats R] [--seed S]
Prints one JSON object.
"""

import argparse
import json
import random
import statistics
import time

import evomcts


def per_move_python_choice(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for g in range(games):
        game = evomcts.Game(seed + g)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))


def per_move_engine_choice(games: int, seed: int) -> None:
    k = seed
    for g in range(games):
        game = evomcts.Game(seed + g)
        while not game.is_over:
            game.apply_random(k)
            k += 1


def per_game(games: int, seed: int) -> None:
    for g in range(games):
        evomcts.random_game(seed + g, seed + g)


def rate(run, games: int, seed: int) -> float:
    start = time.perf_counter()
    run(games, seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per repeat (per game)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # The per-move ways are ~10x slower; a tenth of the games keeps each repeat comparable.
    ways = {
        "per_move_python_choice": (per_move_python_choice, max(1, args.games // 10)),
        "per_move_engine_choice": (per_move_engine_choice, max(1, args.games // 10)),
        "per_game": (per_game, args.games),
    }
    report = {"repeats": args.repeats, "seed": args.seed}
    for name, (run, games) in ways.items():
        rates = [rate(run, games, args.seed) for _ in range(args.repeats)]
        report[name] = {
            "games": games,
            "games_per_sec": round(statistics.median(rates)),
            "games_per_sec_all": [round(r) for r in rates],
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
