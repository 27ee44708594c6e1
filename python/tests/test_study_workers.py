"""``python -m evomcts study --workers N``: a tiny study of an OpenSpiel game (tic-tac-toe at
10 simulations) played in 2 worker processes (``sys.executable -m evomcts step-worker``, where
OpenSpiel's games play) writes the same bytes as the same study in 1, and as one on the
process's own thread; only each phase's ``steps-progress.txt`` (the steps' wall times) differs.

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

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
    name: "ttt-workers",
    game: OpenSpiel(name: "tic_tac_toe"),
    seed: 11,
    budgets: [10],
    tune: (games: 16, reestimate_sequences: 2),
    evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, racing: false, elites: 1, reestimate_candidates: 1),
    validate: (games_cap: 8, sequential: false),
)
"""

PROGRESS = "steps-progress.txt"


def cli(*args) -> int:
    """The command line in this process (as ``python -m evomcts``)."""
    return _evomcts.main(["evomcts", *map(str, args)])


def files(folder: Path):
    """Every file under ``folder`` but the steps' progress lines."""
    return {
        p.relative_to(folder): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != PROGRESS
    }


def test_an_open_spiel_study_on_two_workers_equals_one_on_one(tmp_path):
    spec = tmp_path / "ttt.ron"
    spec.write_text(SPEC)
    one, two, threads = tmp_path / "one", tmp_path / "two", tmp_path / "threads"
    assert cli("study", spec, "--out", one, "--workers", 1, "--quiet") == 0
    assert cli("study", spec, "--out", two, "--workers", 2, "--quiet") == 0
    assert cli("study", spec, "--out", threads, "--quiet") == 0
    # Every phase played its games in worker processes, and left no step folder behind.
    for folder in (one, two):
        for phase in ("tune", "evolve", "validate"):
            dir = folder / "sims-10" / phase
            assert (dir / PROGRESS).is_file(), dir
            assert not (dir / "steps").exists(), dir
    assert not list(threads.rglob(PROGRESS))
    assert (two / "study.csv").is_file()
    assert files(one) == files(two)
    assert files(threads) == files(two)


def test_workers_out_of_range_are_refused(tmp_path):
    spec = tmp_path / "ttt.ron"
    spec.write_text(SPEC)
    assert cli("study", spec, "--out", tmp_path / "out", "--workers", 0) == 2
    assert not (tmp_path / "out").exists()
