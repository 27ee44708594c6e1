"""Replays traces of a native evomcts game in OpenSpiel and compares them step by step.

A trace file is JSON lines: first ``{"game": {"name": ..., "params": [[key, value], ...]}}``,
then one trace per line: ``{"seed", "steps": [{"player", "legal", "chance", "action"}],
"returns"}`` (crates/games/src/open_spiel_twin.rs writes them). At every step OpenSpiel must
agree on the player to move (-1 at chance), the legal actions, the chance outcomes and their
probabilities, and that the game is not over; at the end that it is over, with the same
returns. ``compare`` returns (trajectories, steps) compared or raises ``Mismatch`` naming the
seed and the step.

    python python/tests/oracle_compare.py traces.jsonl
"""

import json
import sys

PROBABILITY_TOLERANCE = 1e-9


class Mismatch(AssertionError):
    pass


def load(pyspiel, game):
    params = {key: value for key, value in game["params"]}
    return pyspiel.load_game(game["name"], params)


def compare_trace(game, trace):
    """Replays one trace in `game` (a pyspiel game); returns the steps compared."""
    state = game.new_initial_state()
    seed = trace["seed"]
    for i, step in enumerate(trace["steps"]):
        where = f"seed {seed}, step {i}"
        if state.is_terminal():
            raise Mismatch(f"{where}: OpenSpiel's game is over, the native one is not")
        player = state.current_player()
        if player != step["player"]:
            raise Mismatch(f"{where}: player {player} in OpenSpiel, {step['player']} natively")
        if state.is_chance_node():
            theirs = sorted(state.chance_outcomes())
            ours = [tuple(o) for o in step["chance"]]
            if [a for a, _ in theirs] != [a for a, _ in ours] or any(
                abs(p - q) > PROBABILITY_TOLERANCE for (_, p), (_, q) in zip(theirs, ours)
            ):
                raise Mismatch(f"{where}: chance outcomes {theirs} in OpenSpiel, {ours} natively")
        else:
            theirs = sorted(state.legal_actions())
            if theirs != step["legal"]:
                raise Mismatch(
                    f"{where}: legal actions {theirs} in OpenSpiel, {step['legal']} natively"
                )
        state.apply_action(step["action"])
    where = f"seed {seed}, end after {len(trace['steps'])} steps"
    if not state.is_terminal():
        raise Mismatch(f"{where}: OpenSpiel's game is not over")
    theirs = state.returns()[:2]
    if any(abs(a - b) > PROBABILITY_TOLERANCE for a, b in zip(theirs, trace["returns"])):
        raise Mismatch(f"{where}: returns {theirs} in OpenSpiel, {trace['returns']} natively")
    return len(trace["steps"])


def shape(lines):
    """The shape of the random games a trace file holds: (mean decisions a game, mean legal
    moves a decision, share of steps that are chance events)."""
    lines = [line for line in lines if line.strip()][1:]
    games = decisions = moves = chance = steps = 0
    for line in lines:
        trace = json.loads(line)
        games += 1
        for step in trace["steps"]:
            steps += 1
            if step["player"] < 0:
                chance += 1
            else:
                decisions += 1
                moves += len(step["legal"])
    return decisions / max(games, 1), moves / max(decisions, 1), chance / max(steps, 1)


def compare(lines):
    """Compares every trace of a trace file's lines; returns (name, trajectories, steps)."""
    import pyspiel

    lines = iter(lines)
    header = json.loads(next(lines))["game"]
    game = load(pyspiel, header)
    trajectories = steps = 0
    for line in lines:
        if line.strip():
            steps += compare_trace(game, json.loads(line))
            trajectories += 1
    return header["name"], trajectories, steps


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        name, trajectories, steps = compare(f)
    print(f"{name}: {trajectories} trajectories, {steps} steps compared, all equal")
