"""evomcts from Python: the Carcassonne engine, selection formulas, searches and run folders.

A thin front end over the Rust library, beside the ``evomcts`` command line: the names follow
the command line's (``Formula(text).eval(q=..., parent_visits=..., child_visits=..., c=...)``
as ``evomcts formula eval``'s flags, ``Game(tile_seed)``, controllers written as league files
write them). Errors raise :class:`EvomctsError` with the message the command line prints.
See docs/python.md for a walk-through.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ._evomcts import (
    Controller,
    EvomctsError,
    Formula,
    Game,
    Grammar,
    Move,
    OpenSpielController,
    __version__,
    random_game,
)
from . import _evomcts

__all__ = [
    "Controller",
    "EvomctsError",
    "Formula",
    "Game",
    "Grammar",
    "Move",
    "OpenSpielController",
    "Portfolio",
    "Run",
    "evolve",
    "load_run",
    "play",
    "portfolio",
    "random_game",
    "run_league",
    "study",
    "tune",
    "__version__",
    "command_line",
]

PathLike = Union[str, "os.PathLike[str]"]


def play(
    a: Controller,
    b: Controller,
    tile_seed: int,
    *,
    bottom_of_stack: bool = False,
    two_tile_city_scores_two: bool = False,
) -> Dict[str, Any]:
    """Plays one game: ``a`` in the first seat, ``b`` in the second, on the tile sequence of
    ``tile_seed``; returns its record.

    Each seat plays a fresh copy of its controller built from the controller's spec and seed,
    so the controllers passed are not changed and the same call plays the same game. The
    record is the ``game`` field of a league's ``games.jsonl`` line (``tile_seed``, ``rules``,
    ``draws``, ``moves``, ``virtual_scores``, ``final_scores``, ``score_by_kind``,
    ``meeples_played``, ``turns_with_meeple_available``, ``turns``, ``discards``; see
    docs/outputs.md), with ``tile_seed`` as an int and ``winner`` added (0, 1, or None for a
    draw). The GIL is released while the game is played; Ctrl-C stops it.
    """
    record: Dict[str, Any] = json.loads(
        _evomcts.play_json(
            a,
            b,
            tile_seed,
            bottom_of_stack=bottom_of_stack,
            two_tile_city_scores_two=two_tile_city_scores_two,
        )
    )
    record["tile_seed"] = int(record["tile_seed"])
    first, second = record["final_scores"]
    record["winner"] = 0 if first > second else 1 if second > first else None
    return record


def command_line(args: List[PathLike]) -> int:
    """Runs the ``evomcts`` command line on ``args`` (without the program's name) in this
    process, as ``python -m evomcts ARGS`` does, and returns its exit status (0 on success, 2
    after an error, printed on stderr). OpenSpiel's games are playable here: a spec naming
    ``OpenSpiel(name: ..., params: ...)`` runs with every command (``league``, ``evolve``,
    ``validate``, ``replay``, ``table``, ``report``). See docs/openspiel.md.
    """
    return _evomcts.main(["evomcts", *map(os.fspath, args)])


def run_league(
    spec_path: PathLike,
    out: PathLike,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    quiet: bool = False,
) -> Dict[str, Any]:
    """Runs the league of the RON spec file ``spec_path`` into the run folder ``out`` and
    writes its tables there, as ``evomcts league SPEC --out OUT [--threads N] [--resume]
    [--quiet]`` does.

    Returns ``games`` (recorded in all), ``played_now``, ``already_recorded``,
    ``duplicates`` and ``dropped_torn_line``; read the tables with :func:`load_run`. Results
    do not depend on ``threads`` (default: all cores; 1 for an OpenSpiel game, whose every call
    takes the GIL). The GIL is released while the games
    run; Ctrl-C stops the run after the games under way are recorded, and ``resume=True``
    continues it.
    """
    return _evomcts.run_league(
        os.fspath(spec_path), os.fspath(out), threads=threads, resume=resume, quiet=quiet
    )


def evolve(
    spec_path: PathLike,
    out: PathLike,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    stop_after: Optional[int] = None,
    quiet: bool = False,
    runs: Optional[int] = None,
    tournament_samples: Optional[int] = None,
) -> Dict[str, Any]:
    """Runs the evolution of the RON spec file ``spec_path`` into the folder ``out``, as
    ``evomcts evolve SPEC --out OUT [--threads N] [--resume] [--stop-after N] [--quiet]``
    does.

    Returns ``generation`` (the last written), ``generations`` (the spec's),
    ``generations_run``, ``resumed_from``, ``samples_spent``, and the last generation's
    ``champion`` and ``reference`` formulas with their fitness (as text: a mean with its
    interval). Ctrl-C stops the run once the generation under way is written; ``resume=True``
    continues it exactly as if it had not stopped.

    With ``runs=K`` (``evomcts evolve SPEC --runs K``): K independent runs into
    ``out/run-1`` … ``out/run-K`` and, once all are finished, a tournament of their champions
    and the seed formula on fresh seeds (each entrant not dropped plays at least
    ``tournament_samples``, default 200) that crowns one. Returns ``runs`` (per run its
    ``folder``, ``generation`` and ``champion``), ``generations`` and, once the tournament is
    played, ``crowned``, ``crowned_sources``, ``crowned_fitness``, ``tournament_csv`` and
    ``tournament_md``. Ctrl-C stops it once every run has written the generation under way.
    """
    return _evomcts.evolve(
        os.fspath(spec_path),
        os.fspath(out),
        threads=threads,
        resume=resume,
        stop_after=stop_after,
        quiet=quiet,
        runs=runs,
        tournament_samples=tournament_samples,
    )


def tune(
    spec_path: PathLike,
    out: PathLike,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    stop_after: Optional[int] = None,
    quiet: bool = False,
) -> Dict[str, Any]:
    """Runs the tuning run of the RON spec file ``spec_path`` into the folder ``out``, as
    ``evomcts tune SPEC --out OUT [--threads N] [--resume] [--stop-after N] [--quiet]`` does
    (SPSA over a controller's named constants, then a re-estimate on fresh sequences; see
    docs/evolution.md, "Tuning constants").

    Returns ``steps``, ``steps_done`` and ``played_now``; once every step is played also
    ``start`` and ``tuned`` (values by parameter name), ``reestimate_sequences``,
    ``paired_difference`` (mean, low, high of tuned − start per sequence) and ``paired_p``
    (Wilcoxon). Ctrl-C stops the run once the step under way is written; ``resume=True``
    continues it exactly as if it had not stopped.
    """
    return _evomcts.tune(
        os.fspath(spec_path),
        os.fspath(out),
        threads=threads,
        resume=resume,
        stop_after=stop_after,
        quiet=quiet,
    )


@dataclass
class Run:
    """The tables of a run folder (see :func:`load_run`). Each table is a pandas DataFrame
    when pandas is installed, else a list of dicts (one per row, numbers converted)."""

    #: ``"league"`` or ``"evolution"``.
    kind: str
    #: A league's tables by name (``games``, ``standings``, ``ratings``, ``matches``,
    #: ``statistics``, ``win_rates``) or an evolution's (``logbook``, ``hall_of_fame``).
    tables: Dict[str, Any]

    @property
    def games(self) -> Any:
        """One row per game (a league), as ``games.csv``."""
        return self.tables.get("games")

    @property
    def standings(self) -> Any:
        """The standings (a league), as ``standings.csv``."""
        return self.tables.get("standings")

    @property
    def ratings(self) -> Any:
        """Bradley–Terry ratings with intervals (a league), as ``ratings.csv``."""
        return self.tables.get("ratings")

    @property
    def logbook(self) -> Any:
        """One row per generation (an evolution run), as ``logbook.csv``."""
        return self.tables.get("logbook")

    @property
    def hall_of_fame(self) -> Any:
        """The best formulas of the run (an evolution run), as ``hall_of_fame.csv``."""
        return self.tables.get("hall_of_fame")


def _number(text: str) -> Any:
    """A CSV cell as an int or float when it is one, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _table(text: str) -> Any:
    try:
        import pandas
    except ImportError:
        rows = csv.DictReader(io.StringIO(text))
        return [{k: _number(v) for k, v in row.items()} for row in rows]
    # Seeds are 64-bit and quoted in the CSV: kept as text, as the files' readers must.
    seeds = {"tile_seed": str, "first_controller_seed": str, "second_controller_seed": str}
    return pandas.read_csv(io.StringIO(text), dtype=seeds)


def load_run(path: PathLike) -> Run:
    """The tables of a run folder: for a league (its ``spec.ron`` and ``games.jsonl``) the
    games, standings, ratings and the other tables ``evomcts table`` writes, recomputed from
    the records; for an evolution run, its logbook and hall of fame.

    Each table is a pandas DataFrame when pandas is installed, else a list of dicts. Errors
    (no such folder, damaged records, an evolution's table that does not read as its writer
    wrote it: another header, a row too short or too long, a file cut in its last row) raise
    :class:`EvomctsError` naming the file (and the row).
    """
    found = dict(_evomcts.run_tables(os.fspath(path)))
    kind = found.pop("kind")
    if kind == "evolution":
        # The files as the run wrote them, checked by the command line's reader before pandas
        # reads them: a damaged or cut table raises EvomctsError naming the file and row.
        for name, text in found.items():
            _evomcts.check_csv(text, os.path.join(os.fspath(path), f"{name}.csv"))
    return Run(kind=kind, tables={name: _table(text) for name, text in found.items()})


# The columns of the CSV files `study` and `portfolio` read, each with its kind: "text" (a
# string), "int", "float" or "bool" (`true`/`false`). An empty cell is missing: NaN in a
# float column, None in a text column, <NA> in an int or bool column that has one (which is
# then pandas' nullable Int64 or boolean); `isna()` finds all of them.
_STUDY_COLUMNS: Dict[str, str] = {
    "game": "text",
    "budget": "int",
    "c_e_start": "float",
    "c_e_tuned": "float",
    "c_e": "float",
    "c_e_diff": "float",
    "c_e_diff_low": "float",
    "c_e_diff_high": "float",
    "c_e_diff_p": "float",
    "champion": "text",
    "champion_simplified": "text",
    "win_rate": "float",
    "win_low": "float",
    "win_high": "float",
    "diff_mean": "float",
    "diff_low": "float",
    "diff_high": "float",
    "wilcoxon_p": "float",
    "sprt_decision": "text",
    "sprt_llr": "float",
    "tune_games": "int",
    "evolve_games": "int",
    "validate_games": "int",
}

# A pairing's result, as the portfolio's matrix and general formula write it.
_PAIRING_COLUMNS: Dict[str, str] = {
    "formula": "text",
    "games": "int",
    "win_rate": "float",
    "win_low": "float",
    "win_high": "float",
    "diff_mean": "float",
    "diff_low": "float",
    "diff_high": "float",
    "wilcoxon_p": "float",
    "holm_p": "float",
}

_PORTFOLIO_COLUMNS: Dict[str, str] = {
    "label": "text",
    "game": "text",
    "budget": "int",
    "open_spiel": "bool",
    "game_type": "text",
    "chance": "bool",
    "branching": "float",
    "length": "float",
    "c_e_start": "float",
    "c_e_tuned": "float",
    "c_e": "float",
    "champion": "text",
    "champion_simplified": "text",
    "win_rate": "float",
    "win_low": "float",
    "win_high": "float",
    "diff_mean": "float",
    "diff_low": "float",
    "diff_high": "float",
    "wilcoxon_p": "float",
    "holm_p": "float",
    "sprt_decision": "text",
    "tune_games": "int",
    "evolve_games": "int",
    "validate_games": "int",
}

_MATRIX_COLUMNS: Dict[str, str] = {
    "budget": "int",
    "source": "text",
    "target": "text",
    **_PAIRING_COLUMNS,
}

_SHARED_COLUMNS: Dict[str, str] = {
    "budget": "int",
    "kind": "text",
    "item": "text",
    "count": "int",
    "champions": "int",
    "labels": "text",
}

_CORRELATIONS_COLUMNS: Dict[str, str] = {
    "budget": "int",
    "terminal": "text",
    "property": "text",
    "spearman_rho": "float",
    "n": "int",
}

_GENERAL_COLUMNS: Dict[str, str] = {
    "budget": "int",
    "target": "text",
    "trained_on": "text",
    **_PAIRING_COLUMNS,
}


def _pandas(caller: str) -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError(
            f"evomcts.{caller} returns pandas DataFrames: install pandas (pip install pandas)"
        ) from None
    return pandas


def _typed_csv(pandas: Any, file: Path, columns: Dict[str, str], what: str) -> Any:
    """``file`` as a DataFrame with ``columns`` converted to their kinds; errors name the file,
    and the column, row and cell that is not what was expected.

    The file is read by the command line's reader (``evomcts report``'s and the resume paths'):
    a row with fewer or more fields than the header, a quote left open or a file cut inside
    its last row raises :class:`EvomctsError` naming the row (and column), never a row padded
    with missing cells."""
    header = ",".join(columns)
    if not file.is_file():
        raise EvomctsError(f"{file}: no such file; expected {what} with the header {header}")
    if file.stat().st_size == 0:
        raise EvomctsError(f"{file}: empty; expected {what} with the header {header}")
    # Every cell as text first (nothing guessed: a formula stays a formula, an empty cell stays
    # empty), then converted column by column below.
    names, rows = _evomcts.read_csv(os.fspath(file))
    missing = [c for c in columns if c not in names]
    if missing:
        raise EvomctsError(
            f"{file}: no column {', '.join(missing)}; expected {what} with the header {header}"
        )
    frame = {}
    for i, name in enumerate(names):
        kind = columns.get(name, "text")  # a column this version does not know stays text
        frame[name] = _column(pandas, file, name, kind, [row[i] for row in rows])
    return pandas.DataFrame(frame, index=pandas.RangeIndex(len(rows)))


def _column(pandas: Any, file: Path, name: str, kind: str, cells: List[str]) -> Any:
    def bad(row: int, cell: str, expected: str) -> EvomctsError:
        # Row 1 is the header: the first data row is row 2, as a spreadsheet numbers it.
        return EvomctsError(
            f"{file}: row {row + 2}, column `{name}`: expected {expected}, found {cell!r}"
        )

    values: List[Any] = []
    for row, cell in enumerate(cells):
        if cell == "":
            values.append(None)
        elif kind == "text":
            values.append(cell)
        elif kind == "float":
            try:
                values.append(float(cell))
            except ValueError:
                raise bad(row, cell, "a number") from None
        elif kind == "int":
            try:
                values.append(int(cell))
            except ValueError:
                raise bad(row, cell, "a whole number") from None
        else:
            if cell not in ("true", "false"):
                raise bad(row, cell, "true or false")
            values.append(cell == "true")
    has_missing = any(v is None for v in values)
    if kind == "float":
        return pandas.Series([float("nan") if v is None else v for v in values], dtype="float64")
    if kind == "int":
        return pandas.Series(values, dtype="Int64" if has_missing else "int64")
    if kind == "bool":
        return pandas.Series(values, dtype="boolean" if has_missing else "bool")
    return pandas.Series(values, dtype=object)


def study(path: PathLike) -> Any:
    """``study.csv`` of the study folder ``path`` (``evomcts study``; docs/study.md) as a
    pandas DataFrame, one row per budget whose three phases are finished.

    Numbers are floats (intervals and p-values included), budgets and game counts ints, the
    game, the formulas and ``sprt_decision`` strings; an empty cell is missing (``isna()``):
    ``sprt_decision`` and ``sprt_llr`` when the sequential test did not run, ``sprt_llr`` alone
    when it is not finite (−∞ or +∞, its sign the decision's). A folder without ``study.csv``,
    a missing column, a row with more or fewer fields than the header (a file cut short), an
    open quote or a cell of the wrong kind raises :class:`EvomctsError` naming the file (and
    the row and column). Needs pandas.
    """
    pandas = _pandas("study")
    file = Path(os.fspath(path)) / "study.csv"
    return _typed_csv(pandas, file, _STUDY_COLUMNS, "a study's table (`evomcts study` writes it)")


@dataclass
class Portfolio:
    """The tables of a portfolio folder (``evomcts portfolio SPEC``), read by
    :func:`portfolio`: each a pandas DataFrame."""

    #: ``portfolio.csv``: one row per game and budget (the game's properties, its tuned
    #: constant, champion and validation against tuned UCT).
    table: Any
    #: ``matrix.csv``: each game's champion (``source``) played on every game (``target``) at
    #: the target's tuned constant against its tuned UCT.
    matrix: Any
    #: ``shared.csv``: the terminals and subexpressions the champions share.
    shared: Any
    #: ``correlations.csv``: Spearman's rho between a terminal's use and a game property.
    correlations: Any
    #: ``general.csv``: a formula evolved on a mix of games, validated on the others; None
    #: when the portfolio has none.
    general: Any = None

    def matrix_pivot(self, budget: int, value: str = "win_rate") -> Any:
        """The matrix at ``budget`` as a DataFrame of ``value`` (a column of ``matrix.csv``:
        ``win_rate``, ``diff_mean``, ``holm_p``, …), one row per source game and one column
        per target game, in the order the matrix lists them; a pairing the matrix lacks is
        NaN. An unknown budget or column raises ValueError naming those there are."""
        matrix = self.matrix
        if value not in matrix.columns or value in ("budget", "source", "target"):
            known = [c for c in matrix.columns if c not in ("budget", "source", "target")]
            raise ValueError(f"no column {value!r} in matrix.csv; it has {', '.join(known)}")
        rows = matrix[matrix["budget"] == budget]
        if rows.empty:
            budgets = ", ".join(str(b) for b in matrix["budget"].drop_duplicates())
            raise ValueError(f"no budget {budget} in matrix.csv; it has {budgets or 'none'}")
        sources = list(rows["source"].drop_duplicates())
        targets = list(rows["target"].drop_duplicates())
        pivot = rows.pivot(index="source", columns="target", values=value)
        return pivot.reindex(index=sources, columns=targets)


def portfolio(path: PathLike) -> Portfolio:
    """The tables of the portfolio folder ``path`` (``evomcts portfolio SPEC``) as a
    :class:`Portfolio` of pandas DataFrames: ``table`` (``portfolio.csv``), ``matrix``,
    ``shared``, ``correlations`` and ``general`` (None without ``general.csv``).

    Numbers are floats (intervals, p-values and Holm-adjusted p-values included), budgets and
    counts ints, ``open_spiel`` and ``chance`` bools, labels, games and formulas strings;
    ``shared.labels`` is the ``;``-separated labels of the champions sharing the item. An
    empty cell is missing (``isna()``). A missing file (other than ``general.csv``), a missing
    column, a row with more or fewer fields than the header (a file cut short), an open quote
    or a cell of the wrong kind raises :class:`EvomctsError` naming the file (and the row and
    column). Needs pandas.
    """
    pandas = _pandas("portfolio")
    folder = Path(os.fspath(path))
    if not folder.is_dir():
        raise EvomctsError(
            f"{folder}: no such folder; expected a portfolio folder (`evomcts portfolio` writes one)"
        )

    def read(name: str, columns: Dict[str, str], what: str) -> Any:
        return _typed_csv(pandas, folder / name, columns, f"{what} of a portfolio")

    general = folder / "general.csv"
    return Portfolio(
        table=read("portfolio.csv", _PORTFOLIO_COLUMNS, "the table"),
        matrix=read("matrix.csv", _MATRIX_COLUMNS, "the generalisation matrix"),
        shared=read("shared.csv", _SHARED_COLUMNS, "the champions' shared terminals"),
        correlations=read("correlations.csv", _CORRELATIONS_COLUMNS, "the correlations"),
        general=(
            read("general.csv", _GENERAL_COLUMNS, "the general formula's validations")
            if general.exists()
            else None
        ),
    )
