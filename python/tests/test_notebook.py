"""docs/portfolio.ipynb runs from top to bottom without an error and draws one heat map per
budget, on the fixture folder data/portfolio-fixture (made-up numbers) and, once it is
committed, on the portfolio dataset runs/portfolio/portfolio12.

It also computes what it says, checked against values the tests recompute from the CSV files
(and, on the dataset, against the `portfolio.md` that `evomcts portfolio` wrote beside them):
its `holm_p` text names the family each file's Holm adjustment runs over (one per file, every
budget pooled); its table of shared items keeps those more than one champion holds and shows how
many hold each (`count`, not `champions`); its heat maps mark a cell as `portfolio.md` does
(`*` where the Holm p is below 0.05, on the diagonal the dataset's Holm p). For these the
notebook runs instrumented: a first cell records every DataFrame it displays and every figure it
shows (title, tick labels, texts), a last cell prints the record as JSON.

Executed with nbclient in a kernel of this interpreter (ipykernel); the notebook finds the
folder through EVOMCTS_PORTFOLIO. Needs nbclient, nbformat, ipykernel, pandas and matplotlib
(tests/python/run.sh installs them); without them these tests skip, except under CI.
"""

import csv
import json
import re
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


# --- What the notebook computes, against the CSV files ------------------------------------

RECORD = "@@notebook record@@"

# Run first: records each DataFrame the notebook displays and each figure it shows, through
# the functions the notebook calls (IPython.display.display, imported by name after this cell,
# and matplotlib.pyplot.show), whatever the notebook's version.
RECORDER = """
import json as _json
import IPython.display as _ipd
import matplotlib.pyplot as _plt
import pandas as _pd

_RECORD = {"frames": [], "figures": []}
_real_display, _real_show = _ipd.display, _plt.show


def _recording_display(*objects, **kwargs):
    for shown in objects:
        if isinstance(shown, _pd.DataFrame):
            _RECORD["frames"].append(_json.loads(shown.to_json(orient="split")))
    return _real_display(*objects, **kwargs)


def _recording_show(*args, **kwargs):
    for number in _plt.get_fignums():
        figure = _plt.figure(number)
        figure.canvas.draw()
        for axes in figure.axes:
            if axes.get_title():  # not the colour bar
                _RECORD["figures"].append({
                    "title": axes.get_title(),
                    "xticks": [t.get_text() for t in axes.get_xticklabels()],
                    "yticks": [t.get_text() for t in axes.get_yticklabels()],
                    "texts": [[t.get_text(), *map(float, t.get_position())] for t in axes.texts],
                })
    return _real_show(*args, **kwargs)


_ipd.display, _plt.show = _recording_display, _recording_show
"""

_runs = {}


@pytest.fixture(scope="module")
def instrumented(tmp_path_factory):
    """`run(folder)`: the notebook executed on `folder` with the recorder, once per folder:
    (its markdown text, the text it printed, the record)."""
    nbformat = require("nbformat")
    nbclient = require("nbclient")
    require("ipykernel")
    require("pandas")
    require("matplotlib")
    jupyter = tmp_path_factory.mktemp("jupyter")
    spec = jupyter / "kernels" / "evomcts-test"
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

    def run(folder: Path):
        if folder not in _runs:
            notebook = nbformat.read(NOTEBOOK, as_version=4)
            markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
            notebook.cells.insert(0, nbformat.v4.new_code_cell(RECORDER))
            notebook.cells.append(nbformat.v4.new_code_cell(f"print({RECORD!r} + _json.dumps(_RECORD))"))
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("JUPYTER_PATH", str(jupyter))
                patch.setenv("EVOMCTS_PORTFOLIO", str(folder))
                nbclient.NotebookClient(
                    notebook,
                    kernel_name="evomcts-test",
                    timeout=300,
                    resources={"metadata": {"path": str(NOTEBOOK.parent)}},
                ).execute()
            printed = "".join(
                o.get("text", "")
                for cell in notebook.cells[1:-1]
                if cell.cell_type == "code"
                for o in cell.outputs
                if o.output_type == "stream"
            )
            last = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
            record = json.loads(last[last.index(RECORD) + len(RECORD):])
            _runs[folder] = (markdown, printed, record)
        return _runs[folder]

    return run


def rows_of(folder: Path, name: str):
    with open(folder / name, newline="") as f:
        return list(csv.DictReader(f))


def holm(p):
    """Holm's step-down adjustment (as crates/runs/src/stats.rs computes it), in input order."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for k, i in enumerate(order):
        running = max(running, min((len(p) - k) * p[i], 1.0))
        out[i] = running
    return out


def reproduces(rows) -> bool:
    """Whether Holm over `rows` as one family gives their holm_p."""
    adjusted = holm([float(r["wilcoxon_p"]) for r in rows])
    return all(abs(a - float(r["holm_p"])) <= 1e-12 * max(1.0, a) for a, r in zip(adjusted, rows))


def test_the_notebook_says_which_family_holm_runs_over(instrumented):
    """Each file's holm_p is Holm over one family, its every budget pooled (not one family per
    file and budget): recomputed here, then held against what the notebook says and prints."""
    markdown, printed, _ = instrumented(DATASET)
    families = {}
    for name in ["portfolio.csv", "matrix.csv", "general.csv"]:
        rows = [r for r in rows_of(DATASET, name) if r["holm_p"] != ""]
        if name == "matrix.csv":  # the diagonal (a game's own validation) is left empty
            assert all(r["source"] != r["target"] for r in rows)
        budgets = list(dict.fromkeys(r["budget"] for r in rows))
        assert len(budgets) > 1, f"{name}: one budget cannot tell pooled from per-budget"
        assert reproduces(rows), f"{name}: Holm over the whole file does not give its holm_p"
        per_budget = all(reproduces([r for r in rows if r["budget"] == b]) for b in budgets)
        assert not per_budget, f"{name}: per budget reproduces holm_p too; the test tells nothing"
        families[name] = (len(rows), budgets)
    said = " ".join((markdown + "\n" + printed).split())
    wrong = re.findall(r"[^.;|]*file and budget[^.;|]*", said)
    assert not wrong, f"the notebook says Holm runs over each file and budget: {wrong}"
    assert "every budget of the file pooled" in said
    for name, (size, budgets) in families.items():
        family = f"{name}: one family of {size} p-values"
        assert family in printed, f"the notebook does not print {family!r}; it printed:\n{printed}"
        assert f"at budgets [{', '.join(budgets)}] together" in printed.split(family)[1].split("\n")[0]


def with_a_terminal_held_by_one_champion(tmp_path: Path) -> Path:
    """The dataset, where each budget's shared.csv also lists a terminal one champion uses (as
    `evomcts portfolio` lists every terminal some champion uses, after the others)."""
    folder = tmp_path / "portfolio12-lone-terminal"
    folder.mkdir()
    for name in ["portfolio.csv", "matrix.csv", "correlations.csv", "general.csv"]:
        (folder / name).write_bytes((DATASET / name).read_bytes())
    rows = rows_of(DATASET, "shared.csv")
    out = []
    for budget in dict.fromkeys(r["budget"] for r in rows):
        at = [r for r in rows if r["budget"] == budget]
        terminals = [r for r in at if r["kind"] == "terminal"]
        out += terminals
        out.append(dict(terminals[0], item="V", count="1", labels=terminals[0]["labels"].split(";")[0]))
        out += [r for r in at if r["kind"] != "terminal"]
    with open(folder / "shared.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(out)
    return folder


def shared_in_portfolio_md(folder: Path):
    """portfolio.md's table of shared items: (budget, kind, item, "K of N", labels)."""
    text = (folder / "portfolio.md").read_text()
    section = text.split("## What the champions share")[1].split("\n\n")[1]
    out = []
    for line in section.splitlines()[2:]:
        budget, kind, item, held, which = [c.strip() for c in line.strip("|").split(" | ")]
        out.append((budget, kind, item.strip("`"), held, which.replace(", ", ";")))
    return out


@pytest.mark.parametrize("variant", ["portfolio12", "lone-terminal"])
def test_the_shared_table_shows_how_many_champions_hold_each_item_it_keeps(
    variant, instrumented, tmp_path
):
    """Per budget, the rows of shared.csv whose `count` (champions holding the item) is above
    one, each shown as `count of champions` (portfolio.md's "champions holding it")."""
    folder = DATASET if variant == "portfolio12" else with_a_terminal_held_by_one_champion(tmp_path)
    _, _, record = instrumented(folder)
    shown = [f for f in record["frames"] if "item" in f["columns"]]
    rows = rows_of(folder, "shared.csv")
    budgets = list(dict.fromkeys(r["budget"] for r in rows))
    expected = [
        {
            "columns": ["kind", "item", "champions holding it", "labels"],
            "data": [
                [r["kind"], r["item"], f"{r['count']} of {r['champions']}", r["labels"]]
                for r in rows
                if r["budget"] == budget and int(r["count"]) > 1
            ],
        }
        for budget in budgets
    ]
    if variant == "portfolio12":
        held = [row for row in shown[1]["data"] if "Q + C" in row]
        assert held and "2 of 14" in held[0], f"`Q + C` at 100 simulations (2 of 14 hold it): {held}"
    # The items kept, then the table as shown.
    kept = [[row[f["columns"].index("item")] for row in f["data"]] for f in shown]
    assert kept == [[row[1] for row in e["data"]] for e in expected], "items kept, per budget"
    assert [{"columns": f["columns"], "data": f["data"]} for f in shown] == expected
    if variant == "portfolio12":
        # The report's own table agrees, and `Q + C` at 100 is held by 2 of the 14.
        report = [
            [kind, item, held, labels]
            for budget in budgets
            for b, kind, item, held, labels in shared_in_portfolio_md(folder)
            if b == budget and int(held.split(" of ")[0]) > 1
        ]
        assert [row for f in expected for row in f["data"]] == report
        assert ["subexpression", "Q + C", "2 of 14", "pentago;breakthrough6"] in expected[1]["data"]


def marks_from_csv(folder: Path):
    """{(budget, source, target): text} by portfolio.md's rule: the win rate to two decimals,
    `*` where the Holm p is below 0.05, off the diagonal the cell's own (matrix.csv), on it the
    game's own validation's (portfolio.csv); a game absent from portfolio.csv counts as 1."""
    own = {(r["label"], r["budget"]): float(r["holm_p"]) for r in rows_of(folder, "portfolio.csv")}
    out = {}
    for r in rows_of(folder, "matrix.csv"):
        key = (r["budget"], r["source"], r["target"])
        p = own.get((r["source"], r["budget"]), 1.0) if r["source"] == r["target"] else float(r["holm_p"])
        out[key] = f"{float(r['win_rate']):.2f}" + ("*" if p < 0.05 else "")
    return out


def marks_in_portfolio_md(folder: Path):
    """{(budget, source, target): text} of portfolio.md's matrix tables."""
    section = (folder / "portfolio.md").read_text().split("\n## The generalisation matrix\n")[1]
    out = {}
    for part in section.split("\n## ")[0].split("\n### ")[1:]:
        budget = part.split(" simulations")[0]
        table = [line for line in part.splitlines() if line.startswith("|")]
        targets = [c.strip() for c in table[0].strip("|").split("|")][1:]
        for line in table[2:]:
            source, *cells = [c.strip() for c in line.strip("|").split("|")]
            for target, cell in zip(targets, cells):
                out[(budget, source, target)] = cell
    return out


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_heat_maps_mark_the_cells_portfolio_md_marks(folder, instrumented):
    _, _, record = instrumented(folder)
    shown = {}
    for figure in record["figures"]:
        budget = figure["title"].split(" simulations")[0]
        for text, x, y in figure["texts"]:
            shown[(budget, figure["yticks"][round(y)], figure["xticks"][round(x)])] = text
    expected = marks_from_csv(folder)
    if folder == DATASET:
        assert marks_in_portfolio_md(folder) == expected  # the rule is the report's
        assert expected[("20", "hex5", "hex5")] == "0.60*"  # a diagonal mark: Holm p 0.027
    differing = {k: (shown.get(k), v) for k, v in expected.items() if shown.get(k) != v}
    assert not differing, f"(budget, source, target): (shown, expected): {differing}"
    assert shown.keys() == expected.keys()
