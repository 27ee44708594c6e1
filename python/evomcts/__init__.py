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
    "Run",
    "evolve",
    "load_run",
    "play",
    "random_game",
    "run_league",
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
    (no such folder, damaged records) raise :class:`EvomctsError`.
    """
    found = dict(_evomcts.run_tables(os.fspath(path)))
    kind = found.pop("kind")
    return Run(kind=kind, tables={name: _table(text) for name, text in found.items()})
