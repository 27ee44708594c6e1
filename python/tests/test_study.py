"""``python -m evomcts study``: a tiny study of an OpenSpiel game (tic-tac-toe, and Connect
Four from another family of games, at 10 simulations) runs its three phases, writes study.csv,
and stopped after two phases resumes to the same bytes; ``evomcts.study`` reads study.csv as a
typed DataFrame.

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

import csv
import math
import os
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError, _evomcts

from conftest import require

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


def test_study_reads_study_csv_with_its_types(tmp_path):
    pandas = require("pandas")
    spec = tmp_path / "ttt.ron"
    spec.write_text(SPEC.format(name="tic_tac_toe", sequential="true"))
    assert cli("study", spec, "--out", tmp_path / "s", "--quiet") == 0
    frame = evomcts.study(tmp_path / "s")
    rows = study_csv(tmp_path / "s")
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == list(rows[0].keys()) and len(frame) == len(rows) == 1
    row, read = rows[0], frame.iloc[0]
    for column in ["budget", "tune_games", "evolve_games", "validate_games"]:
        assert frame[column].dtype == "int64" and read[column] == int(row[column]), column
    for column in ["c_e", "c_e_diff_p", "win_rate", "win_low", "diff_mean", "wilcoxon_p", "sprt_llr"]:
        assert frame[column].dtype == "float64", column
        assert math.isclose(read[column], float(row[column])), column
    for column in ["game", "champion", "champion_simplified", "sprt_decision"]:
        assert isinstance(read[column], str) and read[column] == row[column], column
    # The sequential test ran: its decision is one of three words.
    assert read["sprt_decision"] in ("h0", "h1", "undecided")
    assert 0.0 <= read["wilcoxon_p"] <= 1.0 and 0.0 <= read["c_e_diff_p"] <= 1.0


def test_study_without_study_csv_names_the_file(tmp_path):
    require("pandas")
    with pytest.raises(EvomctsError, match=r"empty-folder/study.csv: no such file; expected a study's table"):
        evomcts.study(tmp_path / "empty-folder")
    spec = tmp_path / "ttt.ron"
    spec.write_text(SPEC.format(name="tic_tac_toe", sequential="false"))
    assert cli("study", spec, "--out", tmp_path / "s", "--quiet", "--stop-after", "2") == 0
    with pytest.raises(EvomctsError, match=r"s/study.csv: no such file"):
        evomcts.study(tmp_path / "s")
    assert cli("study", spec, "--out", tmp_path / "s", "--quiet", "--resume") == 0
    frame = evomcts.study(tmp_path / "s")
    # No sequential test: its two cells are empty, read as missing.
    assert frame["sprt_decision"].isna().all() and frame["sprt_llr"].isna().all()
