"""``evomcts.portfolio``: a portfolio folder's CSV files as typed DataFrames, on the fixture
folder data/portfolio-fixture (made-up numbers in the files and columns `evomcts portfolio`
writes; its README.txt says so) and, once it is committed, the dataset runs/portfolio/portfolio12;
and the errors for a folder that is not one."""

import csv
import math
import shutil
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError

from conftest import require

pandas = require("pandas")

DATASET = Path(__file__).resolve().parent.parent.parent / "runs" / "portfolio" / "portfolio12"
FILES = ["portfolio.csv", "matrix.csv", "shared.csv", "correlations.csv", "general.csv"]


@pytest.fixture
def fixture(data):
    return data / "portfolio-fixture"


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def same_cells(folder, folio):
    """Every file of ``folder`` against its frame in ``folio``, cell by cell."""
    frames = {
        "portfolio.csv": folio.table,
        "matrix.csv": folio.matrix,
        "shared.csv": folio.shared,
        "correlations.csv": folio.correlations,
        "general.csv": folio.general,
    }
    for name, frame in frames.items():
        if frame is None:
            assert name == "general.csv" and not (folder / name).exists()
            continue
        written = rows(folder / name)
        with open(folder / name, newline="") as f:
            assert list(frame.columns) == next(csv.reader(f)), name
        assert len(frame) == len(written), name
        for i, row in enumerate(written):
            for column, cell in row.items():
                value = frame[column].iloc[i]
                where = f"{name} row {i + 2} {column}"
                if cell == "":
                    assert pandas.isna(value), where
                elif cell in ("true", "false"):
                    assert frame[column].dtype == bool and value == (cell == "true"), where
                elif isinstance(value, str):
                    assert value == cell, where
                else:
                    assert math.isclose(float(value), float(cell)), where


if DATASET.is_dir():  # defined only once the dataset is committed: no skipped test under CI

    def test_the_dataset_reads_cell_for_cell():
        folio = evomcts.portfolio(DATASET)
        same_cells(DATASET, folio)
        for budget in folio.table["budget"].unique():
            labels = folio.table.loc[folio.table["budget"] == budget, "label"]
            assert folio.matrix_pivot(budget).shape == (len(labels), len(labels))


def test_every_file_reads_cell_for_cell_with_its_types(fixture):
    folio = evomcts.portfolio(fixture)
    same_cells(fixture, folio)
    table = folio.table
    assert table["budget"].dtype == "int64" and table["validate_games"].dtype == "int64"
    for column in ["win_rate", "win_low", "wilcoxon_p", "holm_p", "branching", "c_e"]:
        assert table[column].dtype == "float64", column
    assert table["open_spiel"].dtype == bool and table["chance"].dtype == bool
    assert table["open_spiel"].any() and not table["open_spiel"].all()
    for column in ["label", "game", "champion", "game_type"]:
        assert table[column].map(type).eq(str).all(), column
    decisions = table["sprt_decision"]
    assert decisions.isna().sum() == 1 and decisions.dropna().map(type).eq(str).all()
    # RFC 4180 quoting: a comma inside a quoted cell stays in the cell.
    assert table["game"].str.contains(",").any() and table["champion"].str.contains(",").any()
    assert folio.matrix["holm_p"].dtype == "float64" and folio.matrix["games"].dtype == "int64"
    assert folio.correlations["spearman_rho"].isna().any()
    assert folio.shared["labels"].str.split(";").map(len).max() > 1


def test_the_matrix_pivots_to_source_by_target_in_the_files_order(fixture, tmp_path):
    folio = evomcts.portfolio(fixture)
    written = rows(fixture / "matrix.csv")
    budgets = {int(r["budget"]) for r in rows(fixture / "portfolio.csv")}
    assert len(budgets) > 1
    for budget in budgets:
        labels = [r["label"] for r in rows(fixture / "portfolio.csv") if int(r["budget"]) == budget]
        for value in ["win_rate", "holm_p"]:
            pivot = folio.matrix_pivot(budget, value=value)
            assert pivot.shape == (len(labels), len(labels))
            assert list(pivot.index) == labels and list(pivot.columns) == labels
            for r in written:
                if int(r["budget"]) == budget:
                    assert pivot.loc[r["source"], r["target"]] == float(r[value])
    assert folio.matrix_pivot(min(budgets)).equals(folio.matrix_pivot(min(budgets), "win_rate"))
    # The order is the file's, not the alphabet's: rows written in reverse pivot in reverse.
    reversed_folder = tmp_path / "reversed"
    shutil.copytree(fixture, reversed_folder)
    lines = (fixture / "matrix.csv").read_text().splitlines(keepends=True)
    (reversed_folder / "matrix.csv").write_text("".join(lines[:1] + lines[:0:-1]))
    pivot = evomcts.portfolio(reversed_folder).matrix_pivot(min(budgets))
    assert list(pivot.index) == list(folio.matrix_pivot(min(budgets)).index)[::-1]
    assert pivot.loc[labels[0], labels[-1]] == folio.matrix_pivot(min(budgets)).loc[labels[0], labels[-1]]
    with pytest.raises(ValueError, match=r"no budget 7 in matrix.csv; it has \d+, \d+"):
        folio.matrix_pivot(7)
    with pytest.raises(ValueError, match="no column 'elo' in matrix.csv; it has formula, games"):
        folio.matrix_pivot(min(budgets), value="elo")


def test_general_is_none_without_general_csv_and_required_files_are_named(fixture, tmp_path):
    folder = tmp_path / "folio"
    shutil.copytree(fixture, folder)
    assert evomcts.portfolio(folder).general is not None
    (folder / "general.csv").unlink()
    folio = evomcts.portfolio(folder)
    assert folio.general is None and len(folio.table) == len(rows(fixture / "portfolio.csv"))
    for name in FILES[:4]:
        moved = folder / (name + ".away")
        (folder / name).rename(moved)
        with pytest.raises(EvomctsError, match=rf"{name}: no such file; expected .* with the header "):
            evomcts.portfolio(folder)
        moved.rename(folder / name)
    with pytest.raises(EvomctsError, match="no-such-folder: no such folder; expected a portfolio folder"):
        evomcts.portfolio(tmp_path / "no-such-folder")


def test_a_missing_column_or_a_bad_cell_is_named_and_a_formula_stays_text(fixture, tmp_path):
    folder = tmp_path / "folio"
    shutil.copytree(fixture, folder)
    table = folder / "portfolio.csv"
    text = table.read_text()
    table.write_text(text.replace(",holm_p,", ",holm,", 1))
    with pytest.raises(EvomctsError, match=r"portfolio.csv: no column holm_p; expected the table"):
        evomcts.portfolio(folder)
    lines = text.splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = next(csv.reader([lines[2]]))
    cells[header.index("win_rate")] = "high"
    cells[header.index("champion")] = "2"  # a formula that reads as a number
    bad = lines[:2] + [",".join(f'"{c}"' if "," in c else c for c in cells) + "\n"] + lines[3:]
    table.write_text("".join(bad))
    with pytest.raises(EvomctsError, match=r"portfolio.csv: row 3, column `win_rate`: expected a number, found 'high'"):
        evomcts.portfolio(folder)
    cells[header.index("win_rate")] = "0.5"
    cells[header.index("chance")] = "yes"
    bad[2] = ",".join(f'"{c}"' if "," in c else c for c in cells) + "\n"
    table.write_text("".join(bad))
    with pytest.raises(EvomctsError, match=r"row 3, column `chance`: expected true or false, found 'yes'"):
        evomcts.portfolio(folder)
    cells[header.index("chance")] = "false"
    bad[2] = ",".join(f'"{c}"' if "," in c else c for c in cells) + "\n"
    table.write_text("".join(bad))
    assert evomcts.portfolio(folder).table["champion"].iloc[1] == "2"
    (folder / "shared.csv").write_text("")
    with pytest.raises(EvomctsError, match=r"shared.csv: empty; expected"):
        evomcts.portfolio(folder)
