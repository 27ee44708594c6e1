"""The Python readers of run folders' CSV files (``study``, ``portfolio``, ``load_run``) read
through the command line's reader (issue 53, cause 5): a file cut short, a row short of a
field or with one too many, or a quote left open raises EvomctsError naming the file, the row
and the column, never a row padded with NA or a bare pandas.errors.ParserError."""

import shutil
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError, evolve, load_run

from conftest import require

pandas = require("pandas")

ROOT = Path(__file__).resolve().parent.parent.parent
# A committed study's table: every column `evomcts study` writes.
STUDY_CSV = ROOT / "runs" / "portfolio" / "portfolio12" / "studies" / "pig" / "study.csv"


@pytest.fixture
def study_folder(tmp_path):
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(STUDY_CSV, folder / "study.csv")
    return folder


def lines(path: Path):
    return path.read_text().splitlines(keepends=True)


def test_a_committed_study_csv_reads(study_folder):
    frame = evomcts.study(study_folder)
    assert len(frame) == len(lines(study_folder / "study.csv")) - 1
    assert frame["budget"].dtype == "int64"


def test_a_study_csv_cut_in_its_last_row_raises_naming_file_row_and_column(study_folder):
    table = study_folder / "study.csv"
    text = lines(table)
    rows = len(text)
    head, last = "".join(text[:-1]), text[-1].rstrip("\n")
    # Cut ten characters before its end, as a full disk or `truncate` leaves it.
    table.write_text(head + last[:-10])
    with pytest.raises(EvomctsError, match=rf"study.csv: row {rows}: the last line has no line break"):
        evomcts.study(study_folder)
    # Cut after its third field and ended: short, named with its first missing column (pandas
    # padded it with NA).
    third = last.split(",")[:3]
    table.write_text(head + ",".join(third) + "\n")
    with pytest.raises(
        EvomctsError,
        match=rf"study.csv: row {rows}: 3 fields where the header has 23: no field for column `c_e_tuned`",
    ):
        evomcts.study(study_folder)
    # Cut inside the quoted champion: the open quote is named, with its column.
    table.write_text(head + last[: last.index('"Q + ') + 5])
    with pytest.raises(
        EvomctsError,
        match=rf"study.csv: row {rows}, column `champion` \(field 10\): a quote opens the field",
    ):
        evomcts.study(study_folder)


def test_a_study_row_with_a_field_too_many_is_named_as_such(study_folder):
    table = study_folder / "study.csv"
    text = lines(table)
    # A comma inserted in the budget: every later cell moves one column to the right.
    cells = text[1].split(",")
    text[1] = ",".join(cells[:1] + ["0", "5"] + cells[2:])
    table.write_text("".join(text))
    with pytest.raises(
        EvomctsError,
        match=r"study.csv: row 2: 24 fields where the header has 23: a field beyond the last column `validate_games`",
    ):
        evomcts.study(study_folder)


def test_portfolio_refuses_a_truncated_or_short_rowed_table(data, tmp_path):
    folder = tmp_path / "folio"
    shutil.copytree(data / "portfolio-fixture", folder)
    table = folder / "portfolio.csv"
    text = table.read_text()
    assert evomcts.portfolio(folder).table is not None
    # Truncated in its last row.
    table.write_text(text[: len(text) - 20])
    rows = len(text.splitlines())
    with pytest.raises(EvomctsError, match=rf"portfolio.csv: row {rows}"):
        evomcts.portfolio(folder)
    # A row short of its last field (a careless edit), ended.
    short = text.splitlines(keepends=True)
    short[1] = short[1].rstrip("\n").rsplit(",", 1)[0] + "\n"
    table.write_text("".join(short))
    with pytest.raises(
        EvomctsError,
        match=r"portfolio.csv: row 2: 24 fields where the header has 25: no field for column `validate_games`",
    ):
        evomcts.portfolio(folder)
    # The other tables too.
    table.write_text(text)
    for name in ["matrix.csv", "shared.csv", "correlations.csv", "general.csv"]:
        other = folder / name
        original = other.read_text()
        other.write_text(original + "1,2\n")
        with pytest.raises(EvomctsError, match=rf"{name}: row {len(original.splitlines()) + 1}: 2 fields"):
            evomcts.portfolio(folder)
        other.write_text(original)
    assert len(evomcts.portfolio(folder).table) == rows - 1


def test_load_run_on_a_truncated_hall_of_fame_raises_evomcts_error(data, tmp_path):
    out = tmp_path / "evolution"
    evolve(data / "tiny_evolve.ron", out, threads=1, quiet=True)
    assert load_run(out).kind == "evolution"
    hall = out / "hall_of_fame.csv"
    text = hall.read_text()
    # Cut inside the last row's quoted formula: pandas would raise its own ParserError.
    hall.write_text(text[: text.rstrip("\n").rindex('"') - 3])
    rows = len(text.splitlines())
    with pytest.raises(EvomctsError, match=rf"hall_of_fame.csv: row {rows}, column `formula` \(field 9\)"):
        load_run(out)
    hall.write_text("garbage\n")
    with pytest.raises(EvomctsError, match=r"hall_of_fame.csv: row 1 \(the header\): found `garbage`"):
        load_run(out)
    hall.write_text(text)
    assert len(load_run(out).hall_of_fame) == rows - 1
