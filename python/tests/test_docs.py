"""The examples of docs/python.md, run in order in one namespace from the repository's root."""

import importlib.util
import re

import pytest


def python_blocks(text: str) -> list:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_examples_of_docs_python_md_run(repo, monkeypatch):
    pytest.importorskip("pandas")
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
    pytest.importorskip("pyspiel")
    blocks = python_blocks((repo / "docs" / "openspiel.md").read_text())
    assert len(blocks) == 2
    monkeypatch.chdir(repo)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), namespace)
    work = namespace["work"]
    assert namespace["league"]["games"] == 120
    assert (work / "pig" / "champion.txt").exists()
    assert "python -m evomcts report" not in (work / "report" / "games" / "game-0.html").read_text()
