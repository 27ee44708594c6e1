"""Connect Four positions with one threat to parry, for evomcts's MCTS and OpenSpiel's
`MCTSBot` at equal simulations: how often each finds the move that must be played.

A hypothesis this measures, not proves: OpenSpiel's MCTS values a terminal child by its
outcome alone, with no exploration term (`SearchNode::UCTValue` returns `outcome[player]`),
so at a node where the player to move can win at once, the other children keep their
exploration bonus and draw visits away from the win; the node's mean return then
understates the threat, and the player before it blocks less often. evomcts's UCT gives a
terminal child its mean plus the same exploration term as any child.

Positions: random games of connect_four (seeded), stopped at the first decision where the
player to move cannot win at once and the opponent could win at once in exactly one column;
the only move that does not lose at once is that column. Each position is searched once by
each side (seeded), at `--sims` simulations, `uct_c` 2 (evomcts C_E = uct_c / (2·sqrt 2)).

    python python/benches/openspiel_threats.py --positions 1000 --sims 1000
    python python/benches/openspiel_threats.py --positions 1000 --sims 1000 --selection OpenSpielUct

The second run separates the hypothesis from its alternatives: evomcts with OpenSpiel's rule
for terminal children and nothing else changed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys


def wilson(k: int, n: int):
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(centre - half, 3), round(centre + half, 3)


def wins_at_once(state, player):
    """The actions with which `player` (to move or not) would win at once."""
    import pyspiel  # noqa: F401

    found = []
    probe = state.clone()
    # A move of the other player is needed to ask what `player` could do: OpenSpiel's
    # connect_four has no pass, so the question is asked of `player` to move only.
    if probe.current_player() != player:
        return None
    for a in probe.legal_actions():
        after = probe.clone()
        after.apply_action(a)
        if after.is_terminal() and after.returns()[player] > 0:
            found.append(a)
    return found


def must_block(state):
    """The one column the player to move must play, if the position is of the kind measured."""
    me = state.current_player()
    if wins_at_once(state, me):
        return None
    threats = set()
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        if after.is_terminal():
            continue
        wins = wins_at_once(after, 1 - me)
        if wins:
            threats.update(wins)
    # Exactly one opponent threat: every move but that column leaves it open (a move in the
    # threat's column fills the cell itself).
    if len(threats) != 1:
        return None
    column = next(iter(threats))
    losing = 0
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        if wins_at_once(after, 1 - me):
            losing += 1
    if losing != len(state.legal_actions()) - 1:
        return None
    return column


def positions(count: int, seed: int):
    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            column = must_block(state)
            if column is not None:
                found.append((state.clone(), column))
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return game, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--selection",
        default="HandCodedUct",
        help="evomcts's tree policy: HandCodedUct (UCT) or OpenSpielUct (a terminal child valued by its outcome alone, as OpenSpiel)",
    )
    args = parser.parse_args()
    import pyspiel

    import evomcts

    game, found = positions(args.positions, args.seed)
    c_e = args.uct_c / (2 * math.sqrt(2))
    ours_ok = theirs_ok = both = 0
    for i, (state, column) in enumerate(found):
        ours = evomcts.OpenSpielController(
            f"Mcts(sims: {args.sims}, c_e: {c_e!r}, reward: WinLoss, final_move: MostVisits, selection: {args.selection})",
            seed=i,
        )
        theirs = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, i), args.uct_c, args.sims, 1000, False, i, False)
        a = ours.step(state) == column
        b = theirs.step(state) == column
        ours_ok += a
        theirs_ok += b
        both += a and b
    n = len(found)
    only_ours, only_theirs = ours_ok - both, theirs_ok - both
    # Exact two-sided sign test on the discordant positions (McNemar's exact test).
    m = only_ours + only_theirs
    k = min(only_ours, only_theirs)
    p = min(1.0, 2 * sum(math.comb(m, j) for j in range(k + 1)) / 2**m) if m else 1.0
    print(
        json.dumps(
            {
                "positions": n,
                "sims": args.sims,
                "evomcts_selection": args.selection,
                "uct_c": args.uct_c,
                "evomcts_blocks": ours_ok,
                "evomcts_rate_95": [round(ours_ok / n, 3), wilson(ours_ok, n)],
                "open_spiel_blocks": theirs_ok,
                "open_spiel_rate_95": [round(theirs_ok / n, 3), wilson(theirs_ok, n)],
                "only_evomcts": only_ours,
                "only_open_spiel": only_theirs,
                "mcnemar_exact_p": p,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
