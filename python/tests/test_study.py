"""``python -m evomcts study``: a tiny study of an OpenSpiel game (tic-tac-toe, and Connect
Four from another family of games, at 10 simulations) runs its three phases, writes study.csv,
and stopped after two phases resumes to the same bytes.

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

import csv
import os
from pathlib import Path

import pytest

from evomcts import _evomcts

try:
    import pyspiel  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    if os.environ.get("CI"):
        raise
    pytest.skip("open_spiel is not installed", allow_module_level=True)

SPEC = """(
    name: "{name}-study",
    game: OpenSpiel(name: "{name}"),
    seed: 5,
    budgets: [10],
    tune: (games: 16, reestimate_sequences: 2),
    evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, racing: false, elites: 1, reestimate_candidates: 1),
    validate: (games_cap: 8, sequential: {sequential}),
)
"""

# Tic-tac-toe (draws are common) and Connect Four (longer games, a column per move).
GAMES = ["tic_tac_toe", "connect_four"]


def cli(*args) -> int:
    """The command line in this process (as ``python -m evomcts``)."""
    return _evomcts.main(["evomcts", *map(str, args)])


def files(folder: Path):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def study_csv(folder: Path):
    with open(folder / "study.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("game", GAMES)
def test_a_tiny_open_spiel_study_runs_and_resumes_to_the_same_bytes(game, tmp_path):
    spec = tmp_path / f"{game}.ron"
    spec.write_text(SPEC.format(name=game, sequential="false"))
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    assert cli("study", spec, "--out", whole, "--quiet") == 0
    rows = study_csv(whole)
    assert len(rows) == 1 and rows[0]["budget"] == "10"
    assert game in rows[0]["game"]
    assert rows[0]["validate_games"] == "8" and rows[0]["sprt_decision"] == ""
    assert 0.0 <= float(rows[0]["win_low"]) <= float(rows[0]["win_rate"]) <= float(rows[0]["win_high"]) <= 1.0
    assert cli("study", spec, "--out", parts, "--quiet", "--stop-after", "2") == 0
    assert not (parts / "study.csv").exists()
    assert cli("study", spec, "--out", parts, "--quiet", "--resume") == 0
    assert files(whole) == files(parts)
