"""Type stubs of the compiled module ``evomcts._evomcts`` (import ``evomcts`` instead)."""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

class EvomctsError(Exception):
    """Bad input (a formula, a spec, a file) or a refused run, with the command line's message."""

class Formula:
    """A selection formula, e.g. ``Formula("Q + 2*C*sqrt(2*ln(N)/n)")``."""

    def __init__(self, text: str) -> None: ...
    @staticmethod
    def uct() -> Formula:
        """UCT, the seed of evolution: ``Q + 2*C*sqrt(2*ln(N)/n)``."""
    def typeset(self) -> str:
        """The formula for people, e.g. ``Q + 2·C·√(2·ln(N)/n)``."""
    def latex(self) -> str:
        """The formula in LaTeX."""
    def canonical(self) -> Formula:
        """The canonical form (equal formulas counted once); its value is the same."""
    def simplify(self) -> Formula:
        """The simplified form (constants folded, dead branches removed); its value is the same."""
    @property
    def size(self) -> int:
        """Number of nodes of the tree."""
    @property
    def depth(self) -> int:
        """Depth of the tree (a lone leaf has depth 0)."""
    @property
    def c_e(self) -> Optional[float]:
        """The formula's own C_E (``[C=...]``), or None."""
    def eval(
        self,
        *,
        q: float = 0.0,
        parent_visits: float = 1.0,
        child_visits: float = 1.0,
        c: float = 2.0,
        variance: float = 0.0,
        parent_q: float = 0.0,
        siblings: float = 0.0,
        heuristic: float = 0.0,
        prior: float = 0.0,
        mover_gain: float = 0.0,
        opponent_gain: float = 0.0,
        meeple: float = 0.0,
        farmer: float = 0.0,
        returned: float = 0.0,
        supply: float = 0.0,
        turn: float = 0.0,
    ) -> float:
        """The value for one child, as ``evomcts formula eval`` with the same flags."""
    @staticmethod
    def terminals() -> List[Tuple[str, str, str, float]]:
        """The terminals: (symbol, ``eval`` keyword, meaning, default) for each."""
    def mutate(self, grammar: Optional[Grammar] = None, seed: int = 1) -> Formula:
        """One random mutation: the first offspring ``evomcts formula mutate --seed SEED`` prints."""
    def mutations(
        self, count: int, grammar: Optional[Grammar] = None, seed: int = 1
    ) -> List[Formula]:
        """The offspring ``evomcts formula mutate --count COUNT --seed SEED`` prints."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Grammar:
    """A grammar for evolving formulas; ``Grammar()`` is the paper's."""

    def __init__(self, name: str = "paper") -> None: ...
    @staticmethod
    def from_file(path: str) -> Grammar:
        """Reads a RON grammar file; errors name the file, line and column."""
    @staticmethod
    def from_text(text: str, file: str = "<text>") -> Grammar:
        """Parses a grammar's RON text; ``file`` names it in errors."""
    def to_ron(self) -> str:
        """The grammar as RON, as ``evomcts formula grammar`` prints it."""
    @property
    def name(self) -> str:
        """The grammar's name."""
    @property
    def description(self) -> str:
        """What the grammar is for."""
    def admits(self, formula: Formula) -> Optional[str]:
        """None if the grammar can produce ``formula``, else why not."""

class Move:
    """One turn's choice: square (x, y), rotation (quarter turns clockwise), meeple segment."""

    def __init__(self, x: int, y: int, rotation: int, meeple: Optional[int] = None) -> None: ...
    @property
    def x(self) -> int:
        """Column of the square, relative to the start tile."""
    @property
    def y(self) -> int:
        """Row of the square, relative to the start tile (south is positive)."""
    @property
    def rotation(self) -> int:
        """Quarter turns clockwise."""
    @property
    def meeple(self) -> Optional[int]:
        """The segment the meeple goes on, or None."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """A two-player game of Carcassonne on the tile sequence of ``tile_seed``."""

    def __init__(
        self,
        tile_seed: int,
        *,
        bottom_of_stack: bool = False,
        two_tile_city_scores_two: bool = False,
    ) -> None: ...
    @property
    def tile_seed(self) -> int:
        """The seed of the tile sequence."""
    @property
    def tile(self) -> Optional[str]:
        """The tile to place (its letter A–X), or None when the game is over."""
    def legal_moves(self) -> List[Move]:
        """Every legal move for the tile to place, in the engine's order."""
    def apply(self, move: Move) -> None:
        """Plays ``move`` and draws the next tile; an illegal move raises EvomctsError."""
    def apply_random(self, seed: int) -> Move:
        """Plays a uniformly random legal move drawn with ``seed``; returns it."""
    @property
    def scores(self) -> Tuple[int, int]:
        """Scores so far (final once the game is over)."""
    @property
    def virtual_scores(self) -> Tuple[int, int]:
        """The scores if the game ended now."""
    @property
    def to_move(self) -> int:
        """The seat (0 or 1) whose turn it is."""
    @property
    def is_over(self) -> bool:
        """Whether the game is over (end-of-game scoring done)."""
    @property
    def turns_played(self) -> int:
        """Turns played so far."""
    @property
    def supplies(self) -> Tuple[int, int]:
        """Meeples each seat still has in hand."""
    def hidden_tiles(self) -> Dict[str, int]:
        """The hidden tiles as a multiset: letter → count."""
    def copy(self) -> Game:
        """A copy (board, scores and stack)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object) -> Game: ...
    def board_text(self) -> str:
        """The board as text, as ``evomcts play`` prints it."""
    def board_svg(self) -> str:
        """The board as an SVG picture, as ``evomcts plot board`` draws it."""

class Controller:
    """A controller from the spec syntax of league files, e.g. ``Controller("Mcts(sims: 400)")``;
    an MCTS spec that names no ``reward`` or ``final_move`` plays Carcassonne's, ``ScoreDiff``
    and ``HighestQ`` (``spec`` writes them out)."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str:
        """The spec as RON, with the content of any file it named."""
    @property
    def seed(self) -> int:
        """The seed its random choices come from."""
    def decide(self, game: Game) -> Move:
        """The controller's move for the tile to place (releases the GIL)."""

def random_game(
    tile_seed: int,
    seed: int,
    *,
    bottom_of_stack: bool = False,
    two_tile_city_scores_two: bool = False,
) -> Tuple[int, int]:
    """One whole random game in one call, as ``evomcts bench engine`` plays them; final scores."""

def play_json(
    a: Controller,
    b: Controller,
    tile_seed: int,
    *,
    bottom_of_stack: bool = False,
    two_tile_city_scores_two: bool = False,
) -> str:
    """One game between fresh copies of ``a`` and ``b``; its record as JSON."""

def run_league(
    spec_path: str,
    out: str,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    quiet: bool = False,
) -> Dict[str, object]:
    """Runs or resumes a league into ``out`` and writes its tables."""

def evolve(
    spec_path: str,
    out: str,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    stop_after: Optional[int] = None,
    quiet: bool = False,
    runs: Optional[int] = None,
    tournament_samples: Optional[int] = None,
) -> Dict[str, object]:
    """Runs or resumes an evolution into ``out``; with ``runs=K``, K independent runs and
    their tournament."""

def tune(
    spec_path: str,
    out: str,
    *,
    threads: Optional[int] = None,
    resume: bool = False,
    stop_after: Optional[int] = None,
    quiet: bool = False,
) -> Dict[str, object]:
    """Runs or resumes a tuning run (``evomcts tune``) into ``out``: ``steps``,
    ``steps_done``, ``played_now`` and, once finished, ``start`` and ``tuned`` (values by
    parameter name), ``reestimate_sequences``, ``paired_difference`` (mean, low, high of
    tuned − start per sequence) and ``paired_p`` (Wilcoxon)."""

def run_tables(path: str) -> List[Tuple[str, str]]:
    """A run folder's tables as CSV text by name, with ``kind`` first."""

def read_csv(path: str) -> Tuple[List[str], List[List[str]]]:
    """The CSV file ``path`` read by the command line's reader: its header's columns and its
    rows' fields as text, every row as wide as the header; a file that does not read (a row
    too short or too long, an open quote, a cut last row) raises EvomctsError naming the file,
    the row and the column."""

def check_csv(text: str, file: str) -> None:
    """Checks the CSV text of the run file ``file`` as the command line reads it: against the
    header its writer writes (``logbook.csv``, ``hall_of_fame.csv``, ``study.csv``, the
    portfolio's tables), else against its own; raises EvomctsError naming the file and row."""


class OpenSpielController:
    """A controller for OpenSpiel states, from the spec syntax of league files, e.g.
    ``OpenSpielController("Mcts(sims: 1000, c_e: 0.35)", seed=1)``. An MCTS spec that names no
    ``reward`` or ``final_move`` plays with ``WinLoss`` and ``MostVisits``: OpenSpiel's games
    are played to win."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    def step(self, state: Any) -> int:
        """The action for ``state`` (a ``pyspiel.State`` at a decision of player 0 or 1)."""
        ...

def main(argv: List[str]) -> int:
    """Runs the ``evomcts`` command line on ``argv`` (program name first) in this process,
    with OpenSpiel's games playable; returns the exit status."""
    ...

def open_spiel_refusal(name: str) -> Optional[str]:
    """Why OpenSpiel's game ``name`` (default parameters) cannot be played, or None."""
    ...

def pig_rules_check(games: int, *, seed: int = 0, target: int = 100, horizon: int = 100000) -> Dict[str, Any]:
    """evomcts's Pig against OpenSpiel's ``pig`` on ``games`` random games with the same dice,
    compared at every step; counts and the first mismatches."""
    ...
