"""OpenSpiel's games as safe as native ones: sizes and parameters checked before OpenSpiel plays
them, OpenSpiel's failures as errors naming the game, its text escaped, reading a folder without
OpenSpiel, and the Python API's bounds, Ctrl-C and threads (issue 43's causes 5 to 10, 13 to 15).

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError, Formula, OpenSpielController, load_run, run_league
from evomcts import _evomcts

try:
    import pyspiel
    from open_spiel.python.games import tic_tac_toe
except ImportError:  # pragma: no cover - depends on the environment
    if os.environ.get("CI"):
        raise
    pytest.skip("open_spiel is not installed", allow_module_level=True)

# The bounds the messages state, as the library declares them (crates/search's
# MAX_LEGAL_MOVES = u16::MAX, crates/arena's MAX_GAME_LENGTH).
MAX_LEGAL_MOVES = 65535
MAX_GAME_LENGTH = 100_000

UCT_AND_RANDOM = """
        (name: "UCT 20", spec: Mcts(sims: 20, c_e: 0.5, reward: WinLoss, final_move: MostVisits)),
        (name: "Random", spec: Random),
"""


def league_spec(path: Path, game: str, games_per_match: int = 2) -> Path:
    path.write_text(
        f"""(
    name: "open-spiel-safety",
    game: {game},
    games_per_match: {games_per_match},
    seed: 3,
    controllers: [{UCT_AND_RANDOM}],
)
"""
    )
    return path


def cli(*args) -> int:
    """The command line in this process (as ``python -m evomcts``)."""
    return _evomcts.main(["evomcts", *map(str, args)])


def refused(tmp_path, game: str) -> str:
    """The error of a league naming `game`, which must write nothing."""
    spec = league_spec(tmp_path / "spec.ron", game)
    with pytest.raises(EvomctsError) as error:
        run_league(spec, tmp_path / "out", quiet=True)
    assert not (tmp_path / "out").exists()
    return str(error.value)


# Cause 5: a game with more actions than a search holds is refused at the spec's `game`.
def test_a_game_with_more_actions_than_a_search_holds_is_refused_at_the_game_field(tmp_path):
    message = refused(tmp_path, 'OpenSpiel(name: "mnk", params: {"m": 300, "n": 300, "k": 5})')
    assert "field `game`" in message and "90000 distinct actions" in message, message
    assert f"at most {MAX_LEGAL_MOVES} legal moves" in message, message
    state = pyspiel.load_game("mnk", {"m": 300, "n": 300, "k": 5}).new_initial_state()
    with pytest.raises(EvomctsError, match=f"at most {MAX_LEGAL_MOVES} legal moves"):
        OpenSpielController("Mcts(sims: 10)").step(state)


# Cause 6: an OpenSpiel error is an error naming the game and the reason, never a panic.
def test_a_game_openspiel_cannot_play_is_refused_at_load_with_openspiels_reason(tmp_path, capfd):
    message = refused(tmp_path, 'OpenSpiel(name: "pig", params: {"diceoutcomes": 0})')
    assert "field `game`" in message and "pig(diceoutcomes=0)" in message, message
    assert "fails in a random game played to check it" in message and "Near" in message, message
    spec = league_spec(tmp_path / "spec.ron", 'OpenSpiel(name: "pig", params: {"diceoutcomes": 0})')
    assert cli("league", spec, "--out", tmp_path / "cli", "--quiet") == 2
    err = capfd.readouterr().err
    assert "error: " in err and "pig(diceoutcomes=0)" in err and "panicked" not in err, err
    # Cause 9: OpenSpiel's own line about the error does not pass through.
    assert "OpenSpiel exception" not in err, err


class _BrokenState(tic_tac_toe.TicTacToeState):
    """Tic-tac-toe whose every state fails once the game's states together applied more
    actions than one game has: the probe at load passes, the first search fails."""

    applied = 0

    def _apply_action(self, action):
        _BrokenState.applied += 1
        if _BrokenState.applied > 9:
            raise ValueError("boom \u202e from the game")
        super()._apply_action(action)


class _BrokenGame(tic_tac_toe.TicTacToeGame):
    def new_initial_state(self):
        return _BrokenState(self)


_BROKEN_TYPE = pyspiel.GameType(
    short_name="python_broken_ttt",
    long_name="Python tic-tac-toe that fails during play",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
pyspiel.register_game(_BROKEN_TYPE, _BrokenGame)


def test_an_openspiel_failure_during_play_is_an_error_and_writes_no_result(tmp_path, capfd):
    _BrokenState.applied = 0
    spec = league_spec(tmp_path / "spec.ron", 'OpenSpiel(name: "python_broken_ttt")')
    out = tmp_path / "out"
    with pytest.raises(EvomctsError, match="python_broken_ttt` failed during play") as error:
        run_league(spec, out, threads=1, quiet=True)
    assert "boom \\u{202e} from the game" in str(error.value)
    assert not (out / "games.jsonl").exists() or (out / "games.jsonl").read_text() == ""
    _BrokenState.applied = 0
    assert cli("league", spec, "--out", tmp_path / "cli", "--threads", "1", "--quiet") == 2
    err = capfd.readouterr().err
    assert "error: OpenSpiel's `python_broken_ttt` failed during play" in err, err
    assert "panicked" not in err, err
    # The controller on a pyspiel state says the same.
    _BrokenState.applied = 0
    state = pyspiel.load_game("python_broken_ttt").new_initial_state()
    with pytest.raises(EvomctsError, match="failed during play"):
        OpenSpielController("Mcts(sims: 50)").step(state)


# Cause 7: a game's length is bounded; a file parameter must name a regular file, never quoted.
def test_a_game_longer_than_the_cap_is_refused_stating_the_cap(tmp_path):
    # In a process of its own: a game that is not refused never ends.
    game = 'OpenSpiel(name: "pig", params: {"winscore": 1000000000, "horizon": 1000000000})'
    spec = league_spec(tmp_path / "long.ron", game)
    script = f"import evomcts; evomcts.run_league({str(spec)!r}, {str(tmp_path / 'out')!r}, quiet=True)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done.stderr
    assert "may last 1000000000" in done.stderr and f"at most {MAX_GAME_LENGTH}" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_file_parameter_naming_a_fifo_or_a_system_file_is_refused_without_waiting_or_quoting(tmp_path):
    fifo = tmp_path / "game.efg"
    os.mkfifo(fifo)
    spec = league_spec(tmp_path / "fifo.ron", f'OpenSpiel(name: "efg_game", params: {{"filename": "{fifo}"}})')
    script = f"import evomcts; evomcts.run_league({str(spec)!r}, {str(tmp_path / 'out')!r}, quiet=True)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "FIFO" in done.stderr and "not a regular file" in done.stderr, done.stderr
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret line\n")
    message = refused(tmp_path, f'OpenSpiel(name: "efg_game", params: {{"filename": "{secret}"}})')
    assert "the secret line" not in message and "not shown" in message, message


# Cause 8: parameters given twice, of a kind OpenSpiel does not take, or out of int range.
@pytest.mark.parametrize(
    "params, expected",
    [
        ('{"rows": 6, "rows": 7}', "parameter `rows` is given twice"),
        ('{"rows": [6, 7]}', "parameter `rows`: a bool, an int, a float or a string expected"),
        ('{"rows": {"a": 1}}', "parameter `rows`: a bool, an int, a float or a string expected"),
        ('{"rows": 99999999999}', "parameter `rows`: 99999999999 is outside OpenSpiel's int range"),
    ],
)
def test_parameters_are_refused_naming_the_parameter_and_what_is_allowed(tmp_path, params, expected):
    message = refused(tmp_path, f'OpenSpiel(name: "connect_four", params: {params})')
    assert expected in message, message
    assert "untagged" not in message and "Unable to cast" not in message, message


def test_a_record_of_a_parameter_of_another_type_is_not_taken_for_the_specs(tmp_path):
    spec = league_spec(tmp_path / "pig.ron", 'OpenSpiel(name: "pig", params: {"winscore": 20})', 1)
    out = tmp_path / "pig"
    run_league(spec, out, quiet=True)
    records = out / "games.jsonl"
    records.write_text(records.read_text().replace('"winscore":20', '"winscore":"20"'))
    with pytest.raises(EvomctsError):
        load_run(out)


# Cause 2: a result no zero-sum game can end in (both players winning) is refused where
# records are read, as each score out of range is.
def test_a_record_where_both_players_win_a_zero_sum_game_is_refused(tmp_path):
    import re

    spec = league_spec(tmp_path / "pig.ron", 'OpenSpiel(name: "pig", params: {"winscore": 20})', 1)
    out = tmp_path / "pig"
    run_league(spec, out, quiet=True)
    load_run(out)
    records = out / "games.jsonl"
    text = records.read_text()
    edited = re.sub(r'"final_scores":\[[^\]]*\]', '"final_scores":[1,1]', text, count=1)
    assert edited != text
    records.write_text(edited)
    with pytest.raises(EvomctsError, match="final_scores"):
        load_run(out)


# Cause 9: text from records reaches the terminal escaped and cut.
def test_a_records_openspiel_version_is_shown_escaped_and_cut(tmp_path, capfd):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', 1)
    out = tmp_path / "c4"
    run_league(spec, out, quiet=True)
    text = (out / "games.jsonl").read_text()
    version = json.dumps(pyspiel.__version__)
    odd = json.dumps("\u202e\u0007" + "9" * 1_000_000)
    (out / "games.jsonl").write_text(text.replace(f'"open_spiel":{version}', f'"open_spiel":{odd}'))
    capfd.readouterr()
    cli("replay", out, "--quiet")
    err = capfd.readouterr().err
    assert "records made with OpenSpiel \\u{202e}\\u{7}999" in err, err[:500]
    assert "\u202e" not in err and "\u0007" not in err
    assert len(err) < 10_000, len(err)


# Cause 10: reading a run folder never needs pyspiel.
def test_reading_an_open_spiel_folder_needs_no_open_spiel(tmp_path):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', 1)
    out = tmp_path / "c4"
    run_league(spec, out, quiet=True)
    script = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import evomcts\n"
        f"run = evomcts.load_run({str(out)!r})\n"
        "assert run.kind == 'league', run.kind\n"
        "table = evomcts._evomcts.main(['evomcts', 'table', sys.argv[1]])\n"
        "report = evomcts._evomcts.main(['evomcts', 'report', sys.argv[1], '--out', sys.argv[2]])\n"
        "print('STATUS', table, report)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(out), str(tmp_path / "report")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "STATUS 0 0" in done.stdout, done.stdout + done.stderr
    assert "UCT 20" in done.stdout


# Cause 13: the command line's bounds hold in the Python API.
def test_the_python_api_holds_the_command_lines_bounds():
    uct = Formula.uct()
    with pytest.raises(EvomctsError, match="count: must be between 0 and 1000000"):
        uct.mutations(count=10**12)
    with pytest.raises(EvomctsError, match="count"):
        uct.mutations(count=-1)
    with pytest.raises(TypeError, match="count"):
        uct.mutations(count="3")
    assert len(uct.mutations(count=3)) == 3
    with pytest.raises(EvomctsError, match="parent_visits"):
        uct.eval(parent_visits=-1, child_visits=1)
    with pytest.raises(EvomctsError, match="child_visits"):
        uct.eval(parent_visits=1, child_visits=-5)
    with pytest.raises(EvomctsError, match="games: must be between 0 and 10000000"):
        _evomcts.pig_rules_check(10**12)
    with pytest.raises(TypeError, match="state"):
        OpenSpielController("Mcts(sims: 10)").step(None)


# Cause 14: Ctrl-C stops a controller's search within seconds.
def test_a_controller_search_stops_on_ctrl_c(tmp_path):
    state = pyspiel.load_game("connect_four").new_initial_state()
    # Ten million playouts, a minute or more at connect_four's 0.01 ms per simulation.
    controller = OpenSpielController("Mcts(sims: 1000000, rollouts_per_leaf: 10, c_e: 0.5)", seed=1)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            controller.step(state)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 15
    # The controller still serves.
    assert OpenSpielController("Mcts(sims: 20)").step(state) in state.legal_actions()
    quick = OpenSpielController("Mcts(sims: 20)", seed=1)
    assert quick.step(state) in state.legal_actions()


# Cause 15: objects shared by threads, and a folder locked by two threads of one process.
def test_a_controller_shared_by_threads_says_so_and_a_game_may_be_read_meanwhile():
    controller = evomcts.Controller("Mcts(sims: 20000)", seed=1)
    game = evomcts.Game(tile_seed=1)
    errors = []

    def decide():
        try:
            controller.decide(game)
        except EvomctsError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=decide) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    # The game is copied before the search: another thread may use it meanwhile.
    assert game.legal_moves()
    for t in threads:
        t.join()
    assert len(errors) == 1, errors
    assert "Controller is in use by another thread" in errors[0] and "not shareable" in errors[0]
    state = pyspiel.load_game("connect_four").new_initial_state()
    shared = OpenSpielController("Mcts(sims: 200000)", seed=1)
    found = []

    def step():
        try:
            shared.step(state)
        except EvomctsError as e:
            found.append(str(e))

    threads = [threading.Thread(target=step) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 1 and "OpenSpielController is in use by another thread" in found[0], found


def test_a_folder_locked_by_another_thread_of_this_process_is_said_to_be(tmp_path):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', 6)
    out = tmp_path / "c4"
    errors = []

    def league():
        try:
            run_league(spec, out, threads=1, resume=True, quiet=True)
        except EvomctsError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=league) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 1, errors
    assert "another run of this same process" in errors[0] and "another evomcts process" not in errors[0]
