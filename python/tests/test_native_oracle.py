"""The native games of crates/games against OpenSpiel, move for move (issue 49).

For every variant the oracle example prints (crates/twins/examples/oracle_trace.rs), 1,000
seeded random trajectories are replayed in OpenSpiel and compared at every step: the player to
move, the legal actions, the chance outcomes and their probabilities, that the game is not over,
and at the end the returns (oracle_compare.py). It prints trajectories and steps compared per
variant. The example binary is built by tests/python/run.sh and named by EVOMCTS_ORACLE; without
it (a machine without the Rust toolchain) the test is skipped, except under CI.
"""

import json
import os
import subprocess

import pytest

from conftest import require
from oracle_compare import Mismatch, compare, shape

TRAJECTORIES = 1000

# Each native game's variants: OpenSpiel's default and the others its parameters reach.
VARIANTS = {
    "tic_tac_toe": ["tic_tac_toe"],
    "hex": ["hex5", "hex11", "hex3x7", "hex8x4", "hex5swap"],
    "y": ["y1", "y5", "y9", "y19"],
    "gomoku": ["gomoku15", "mnk15", "gomoku9c4", "gomoku7anti", "gomoku7wrap", "gomoku4wrap5",
               "gomoku3c4", "mnk3x4", "mnk6x9c4"],
    "pentago": ["pentago"],
    "othello": ["othello"],
    "breakthrough": ["breakthrough", "breakthrough6", "breakthrough3x5"],
    "clobber": ["clobber", "clobber4", "clobber8"],
    "checkers": ["checkers", "checkers8x6", "checkers7"],
    "mancala": ["mancala"],
    "oware": ["oware", "oware_4_3", "oware_8_6", "oware_1_1"],
    "nim": ["nim", "nim_2_3_5_8_13_normal", "nim_12_misere"],
    "dots_and_boxes": ["dots_and_boxes", "dots_and_boxes_3_4", "dots_and_boxes_1_1",
                       "dots_and_boxes_5_3"],
    "maedn": ["maedn", "maedn_side_by_side"],
    "backgammon": ["backgammon", "backgammon_100_turns"],
    "connect_four": ["connect_four"],
}


def oracle():
    path = os.environ.get("EVOMCTS_ORACLE")
    if not path:
        if os.environ.get("CI"):
            pytest.fail("EVOMCTS_ORACLE is not set under CI")
        pytest.skip("EVOMCTS_ORACLE (the oracle_trace example) is not built")
    return path


@pytest.mark.parametrize(
    "variant", [v for variants in VARIANTS.values() for v in variants]
)
def test_native_game_is_open_spiels(variant):
    require("pyspiel")
    out = subprocess.run(
        [oracle(), variant, str(TRAJECTORIES), "1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    name, trajectories, steps = compare(out.splitlines())
    length, branching, chance = shape(out.splitlines())
    print(
        f"{variant} ({name}): {trajectories} trajectories, {steps} steps compared, all equal; "
        f"{length:.1f} decisions a game, {branching:.1f} legal moves a decision, "
        f"{chance:.2f} of steps chance events"
    )
    assert trajectories == TRAJECTORIES
    assert steps >= trajectories


def test_a_rule_broken_natively_is_caught():
    """The comparison can fail: a trace whose legal actions lack one is refused."""
    require("pyspiel")
    out = subprocess.run(
        [oracle(), "tic_tac_toe", "1", "1"], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    trace = json.loads(out[1])
    trace["steps"][0]["legal"] = trace["steps"][0]["legal"][1:]
    with pytest.raises(Mismatch, match="legal actions"):
        compare([out[0], json.dumps(trace)])
