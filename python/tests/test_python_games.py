"""Games written in Python, named by a spec's ``import`` field (docs/python.md, "A game written
in Python"): the module is imported where the spec is read, in the driver and in every worker
process of ``--workers N``, so a study of OpenSpiel's ``python_tic_tac_toe`` or of a game of
one's own (python/examples/race_to_ten.py) on 2 workers writes the bytes it writes on 1.

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import pyspiel  # noqa: F401
except ImportError:  # pragma: no cover - depends on the environment
    if os.environ.get("CI"):
        raise
    pytest.skip("open_spiel is not installed", allow_module_level=True)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "race_to_ten.py"

STUDY = """(
    name: "{name}",
    game: OpenSpiel(name: "{game}", import: [{modules}]),
    seed: 5,
    budgets: [10],
    tune: (games: 8, reestimate_sequences: 2),
    evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, racing: false, elites: 1, reestimate_candidates: 1),
    validate: (games_cap: 8, sequential: false),
)
"""

PROGRESS = "steps-progress.txt"


def evomcts(cwd: Path, *args) -> subprocess.CompletedProcess:
    """``python -m evomcts ARGS`` in a process of its own, started in ``cwd``: as a user runs
    it, with the folder of their module on Python's path."""
    return subprocess.run(
        [sys.executable, "-m", "evomcts", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def files(folder: Path):
    """Every file under ``folder`` but the steps' progress lines (their wall times)."""
    return {
        p.relative_to(folder): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != PROGRESS
    }


def study_on_one_and_two_workers(tmp_path: Path, name: str, game: str, modules: str):
    spec = tmp_path / f"{name}.ron"
    spec.write_text(STUDY.format(name=name, game=game, modules=modules))
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"{name}-{workers}"
        done = evomcts(tmp_path, "study", spec, "--out", out, "--workers", workers, "--quiet")
        assert done.returncode == 0, done.stderr
        runs[workers] = files(out)
    assert runs[1] == runs[2]
    assert any(p.name == "study.csv" for p in runs[2]), sorted(runs[2])
    return tmp_path / f"{name}-2"


def test_openspiels_python_tic_tac_toe_plays_on_two_workers(tmp_path):
    out = study_on_one_and_two_workers(
        tmp_path, "python-ttt", "python_tic_tac_toe", '"open_spiel.python.games.tic_tac_toe"'
    )
    # The module is kept with the game in the run's records, so a resume or a report of the
    # folder imports it again.
    records = files(out)
    kept = [p for p, text in records.items() if b'"open_spiel.python.games.tic_tac_toe"' in text]
    assert len(kept) >= 2, sorted(records)  # the study's spec and its phases' specs


def test_a_game_of_ones_own_plays_on_two_workers(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "race_to_ten.py")
    out = study_on_one_and_two_workers(tmp_path, "race", "python_race_to_ten", '"race_to_ten"')
    # Resumed in another process, the finished study is read back whole, its module imported
    # again from the spec.
    again = evomcts(tmp_path, "study", tmp_path / "race.ron", "--out", out, "--resume", "--quiet")
    assert again.returncode == 0, again.stderr


def test_a_module_that_does_not_import_is_named_in_the_error(tmp_path):
    spec = tmp_path / "missing.ron"
    spec.write_text(STUDY.format(name="missing", game="python_nothing", modules='"no_such_module_here"'))
    done = evomcts(tmp_path, "study", spec, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 2
    assert "the spec's `import` names `no_such_module_here`, which does not import here" in done.stderr
    assert "ModuleNotFoundError" in done.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.csv"))


def test_a_python_game_without_its_module_is_refused_with_a_hint(tmp_path):
    spec = tmp_path / "bare.ron"
    spec.write_text(STUDY.format(name="bare", game="python_race_to_ten", modules="").replace(", import: []", ""))
    done = evomcts(tmp_path, "study", spec, "--out", tmp_path / "out", "--quiet")
    assert done.returncode == 2
    assert "python_race_to_ten" in done.stderr
    assert "name the module in the spec" in done.stderr
