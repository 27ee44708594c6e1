"""docs/portfolio.ipynb runs from top to bottom without an error and draws one heat map per
budget, on the fixture folder data/portfolio-fixture (made-up numbers) and, once it is
committed, on the portfolio dataset runs/portfolio/portfolio12.

Executed with nbclient in a kernel of this interpreter (ipykernel); the notebook finds the
folder through EVOMCTS_PORTFOLIO. Needs nbclient, nbformat, ipykernel, pandas and matplotlib
(tests/python/run.sh installs them); without them these tests skip, except under CI.
"""

import csv
import json
import sys
from pathlib import Path

import pytest

from conftest import require

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
NOTEBOOK = ROOT / "docs" / "portfolio.ipynb"
DATASET = ROOT / "runs" / "portfolio" / "portfolio12"

# The dataset's case exists only once the dataset does: no skipped case under CI.
FOLDERS = [pytest.param(HERE / "data" / "portfolio-fixture", id="fixture")]
if DATASET.is_dir():
    FOLDERS.append(pytest.param(DATASET, id="portfolio12"))


def budgets(folder: Path):
    with open(folder / "matrix.csv", newline="") as f:
        return list(dict.fromkeys(row["budget"] for row in csv.DictReader(f)))


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """The name of a kernel that runs this interpreter (not whatever `python3` names)."""
    require("ipykernel")
    spec = tmp_path / "jupyter" / "kernels" / "evomcts-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "evomcts tests",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return "evomcts-test"


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_portfolio_notebook_runs_and_draws_a_heat_map_per_budget(folder, kernel, monkeypatch):
    nbformat = require("nbformat")
    nbclient = require("nbclient")
    require("pandas")
    require("matplotlib")
    monkeypatch.setenv("EVOMCTS_PORTFOLIO", str(folder))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name=kernel,
        timeout=300,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on an error
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert str(folder) in printed
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.data]
    assert len(images) == len(budgets(folder))
    tables = [o for o in outputs if "text/html" in o.get("data", {})]
    assert len(tables) >= len(budgets(folder))  # the table of each budget


def test_the_notebook_names_a_folder_that_is_not_a_portfolio(kernel, tmp_path, monkeypatch):
    nbformat = require("nbformat")
    nbclient = require("nbclient")
    monkeypatch.setenv("EVOMCTS_PORTFOLIO", str(tmp_path / "nothing-here"))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook, kernel_name=kernel, timeout=300, resources={"metadata": {"path": str(tmp_path)}}
    )
    with pytest.raises(nbclient.exceptions.CellExecutionError, match=r"nothing-here/portfolio.csv: no such file"):
        client.execute()
