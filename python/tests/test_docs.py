"""The examples of docs/python.md and docs/openspiel.md, run in order in one namespace from the
repository's root, and docs/openspiel.md's first commands, run as written on a clean clone."""

import importlib.util
import re
import shlex
import subprocess
import sys

from conftest import require


def python_blocks(text: str) -> list:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_examples_of_docs_python_md_run(repo, monkeypatch):
    require("pandas")
    blocks = python_blocks((repo / "docs" / "python.md").read_text())
    assert len(blocks) >= 6
    with_matplotlib = importlib.util.find_spec("matplotlib") is not None
    if with_matplotlib:
        import matplotlib

        matplotlib.use("Agg")
    monkeypatch.chdir(repo)
    namespace: dict = {}
    for block in blocks:
        if not with_matplotlib:
            block = "\n".join(
                line for line in block.splitlines() if "# needs matplotlib" not in line
            )
        exec(compile(block, "docs/python.md", "exec"), namespace)
    assert namespace["run"].standings["points"].sum() > 0
    if with_matplotlib:
        assert (namespace["work"] / "standings.png").stat().st_size > 0


def test_the_examples_of_docs_openspiel_md_run(repo, monkeypatch):
    require("pyspiel")
    blocks = python_blocks((repo / "docs" / "openspiel.md").read_text())
    assert len(blocks) == 3
    monkeypatch.chdir(repo)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), namespace)
    work = namespace["work"]
    assert namespace["league"]["games"] == 120
    assert (work / "pig" / "champion.txt").exists()
    assert "python -m evomcts report" not in (work / "report" / "games" / "game-0.html").read_text()
    # The worked example of OpenSpielController played a whole game, and MCTS beat the random
    # player (at 200 simulations it wins nearly every game of connect_four).
    assert namespace["state"].is_terminal() and namespace["state"].returns() == [1.0, -1.0]


# The spec settings scaled down in the clone (as tests/it/docs_commands.rs does for the native
# documents), so the test checks the command lines, folders and spec files, not the budgets.
SCALED = {"sims": 4, "games_per_match": 1, "generations": 1, "samples": 2, "elite_samples": 2}


def scale(text: str) -> str:
    for key, value in SCALED.items():
        text = re.sub(rf"(?<![\w]){key}: \d+(?![\d.])", f"{key}: {value}", text)
    return text


def test_the_first_commands_of_docs_openspiel_md_run_as_written_on_a_clean_clone(repo, tmp_path):
    require("pyspiel")
    block = re.search(r"^```sh\n(.*?)^```", (repo / "docs" / "openspiel.md").read_text(), flags=re.S | re.M)
    commands = [line.split() for line in block.group(1).splitlines() if line.startswith("python -m evomcts ")]
    assert len(commands) >= 4
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    for words in commands:
        for spec in (w for w in words if w.endswith(".ron")):
            path = clone / spec
            path.write_text(scale(path.read_text()))
    for words in commands:
        done = subprocess.run([sys.executable, *words[1:]], cwd=clone, capture_output=True, text=True)
        assert done.returncode == 0, f"{shlex.join(words)} failed on a clean clone: {done.stderr}"
    assert (clone / "report" / "open-spiel" / "index.html").exists()


def test_scale_changes_whole_numbers_of_the_scaled_settings_only():
    assert scale("(sims: 200, c_e: 0.5, elite_samples: 200, samples: 40, z: 2.5)") == (
        "(sims: 4, c_e: 0.5, elite_samples: 2, samples: 2, z: 2.5)"
    )
