"""OpenSpiel's games through the package: leagues, replay, resume, evolution, the rules check
against evomcts's Pig, a controller on pyspiel states, and the refusals.

Needs ``open_spiel`` (tests/python/run.sh installs it); without it these tests skip, except
under CI (``CI`` set), where a missing OpenSpiel fails them.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError, OpenSpielController, evolve, load_run, run_league
from evomcts import _evomcts

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    if os.environ.get("CI"):
        raise
    pytest.skip("open_spiel is not installed", allow_module_level=True)


def league_spec(path: Path, game: str, controllers: str, games_per_match: int = 2) -> Path:
    path.write_text(
        f"""(
    name: "open-spiel-test",
    game: {game},
    games_per_match: {games_per_match},
    seed: 3,
    controllers: [{controllers}],
)
"""
    )
    return path


UCT_AND_RANDOM = """
        (name: "UCT 20", spec: Mcts(sims: 20, c_e: 0.5, reward: WinLoss, final_move: MostVisits)),
        (name: "Random", spec: Random),
"""


def evolve_spec(path: Path, game: str, *, seed: int, generations: int, samples: int) -> Path:
    """A tiny evolution on `game`: a (1 + 2)-ES at 10 simulations against UCT."""
    path.write_text(
        f"""(
    name: "open-spiel-evolve-test",
    seed: {seed},
    grammar: "paper",
    seed_formula: "Q + 2*C*sqrt(2*ln(N)/n)",
    strategy: (mu: 1, lambda: 2, generations: {generations}, plus: true, initial: MutatedSeed),
    noise: (samples: {samples}),
    fitness: Games(
        game: {game},
        candidate: (sims: 10, c_e: 0.5, reward: WinLoss),
        baseline: Mcts(sims: 10, c_e: 0.5, reward: WinLoss),
        score: WinRate,
    ),
)
"""
    )
    return path


def cli(*args) -> int:
    """The command line in this process (as ``python -m evomcts``)."""
    return _evomcts.main(["evomcts", *map(str, args)])


def records(folder: Path):
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def test_a_connect_four_league_records_histories_replays_and_resumes_byte_for_byte(tmp_path, capfd):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', UCT_AND_RANDOM)
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    outcome = run_league(spec, whole, threads=1, quiet=True)
    assert outcome["games"] == 4
    for record in records(whole):
        game = record["game"]
        assert game["game"] == {"OpenSpiel": {"name": "connect_four"}}
        assert game["open_spiel"] == pyspiel.__version__
        assert sorted(map(abs, game["final_scores"])) in ([0, 0], [1, 1])
        # The record is the action history: replayed in OpenSpiel, it ends where the game did.
        state = pyspiel.load_game("connect_four").new_initial_state()
        for action in game["moves"]:
            state.apply_action(action)
        assert state.is_terminal() and state.returns() == game["final_scores"]
    assert cli("replay", whole, "--quiet") == 0
    assert "4 games replayed, 4 reproduced, 0 diverged" in capfd.readouterr().out
    # Interrupted after two games (its last record torn), then resumed: the same bytes.
    resumed.mkdir()
    lines = (whole / "games.jsonl").read_text().splitlines(keepends=True)
    (resumed / "spec.ron").write_bytes((whole / "spec.ron").read_bytes())
    (resumed / "games.jsonl").write_text("".join(lines[:2]) + lines[2][:40])
    outcome = run_league(spec, resumed, threads=1, resume=True, quiet=True)
    assert (outcome["already_recorded"], outcome["played_now"]) == (2, 2)
    assert outcome["dropped_torn_line"]
    assert (resumed / "games.jsonl").read_bytes() == (whole / "games.jsonl").read_bytes()
    assert (resumed / "standings.csv").read_bytes() == (whole / "standings.csv").read_bytes()
    assert load_run(resumed).kind == "league"


def test_a_game_with_chance_plays_replays_and_shows_its_steps(tmp_path, capfd):
    controllers = """
        (name: "Random A", spec: Random),
        (name: "Random B", spec: Random),
    """
    spec = league_spec(tmp_path / "bg.ron", 'OpenSpiel(name: "backgammon")', controllers, 1)
    out = tmp_path / "bg"
    run_league(spec, out, quiet=True)
    game = records(out)[0]["game"]
    assert game["outcomes"], "backgammon's dice are recorded"
    assert cli("replay", out, "--quiet") == 0
    assert "2 games replayed, 2 reproduced" in capfd.readouterr().out
    assert cli("replay", out, "--game", 0) == 0
    shown = capfd.readouterr().out
    assert "chance: " in shown and "Random A (player 1)" in shown
    # Both seatings of a seed meet the same dice until the games part.
    first, second = (r["game"] for r in records(out))
    assert first["seed"] == second["seed"] and first["outcomes"][:1] == second["outcomes"][:1]


def test_a_search_handles_chance_nodes_and_answers_a_legal_action():
    game = pyspiel.load_game("backgammon")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    controller = OpenSpielController("Mcts(sims: 20, c_e: 0.35, reward: WinLoss)", seed=1)
    action = controller.step(state)
    assert action in state.legal_actions()
    # The same seed and state give the same action; the state passed is not changed.
    again = OpenSpielController("Mcts(sims: 20, c_e: 0.35, reward: WinLoss)", seed=1)
    assert again.step(state) == action and not state.is_chance_node()
    chance = game.new_initial_state()
    with pytest.raises(EvomctsError, match="not at a decision"):
        controller.step(chance)


def test_a_pig_evolution_runs_and_an_interrupted_one_resumes_to_the_same_files(tmp_path):
    spec = evolve_spec(
        tmp_path / "pig.ron", 'OpenSpiel(name: "pig", params: {"winscore": 10})', seed=5, generations=2, samples=4
    )
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    done = evolve(spec, whole, threads=2, quiet=True)
    assert done["generation"] == 2
    evolve(spec, parts, threads=1, stop_after=1, quiet=True)
    evolve(spec, parts, threads=2, resume=True, quiet=True)
    for name in ["logbook.csv", "hall_of_fame.csv", "champion.txt"]:
        assert (parts / name).read_bytes() == (whole / name).read_bytes(), name
    assert load_run(whole).kind == "evolution"


def test_evomcts_pig_matches_open_spiel_pig_step_by_step():
    found = _evomcts.pig_rules_check(2000, seed=7)
    assert found["games_with_mismatch"] == 0, found["mismatches"]
    # The two differences of rules, each seen and counted: OpenSpiel lets a player stop with
    # a turn total of 0, and asks the winner to stop once the target is reached.
    assert found["zero_total_stops"] > 0
    assert found["forced_final_stops"] == 2000
    assert found["decisions"] > 2000 and found["rolls"] > 2000


@pytest.mark.parametrize(
    "game, message",
    [
        ('OpenSpiel(name: "no_such_game")', "Unknown game 'no_such_game'"),
        ('OpenSpiel(name: "pig", params: {"winscor": 3})', "Unknown parameter 'winscor'"),
        ('OpenSpiel(name: "pig", params: {"winscore": "3"})', "Wrong type for parameter winscore"),
        ('OpenSpiel(name: "kuhn_poker")', "information IMPERFECT_INFORMATION"),
        ('OpenSpiel(name: "pig", params: {"players": 3})', "3 players \\(needs 2\\)"),
        ('OpenSpiel(name: "goofspiel")', "dynamics SIMULTANEOUS"),
        ('OpenSpiel(name: "yacht")', "up to 7776 chance outcomes at a node; an external game may have at most 256"),
    ],
)
def test_games_evomcts_cannot_play_are_refused_with_the_reason(tmp_path, game, message):
    spec = league_spec(tmp_path / "bad.ron", game, UCT_AND_RANDOM)
    with pytest.raises(EvomctsError, match="field `game`: .*" + message):
        run_league(spec, tmp_path / "out", quiet=True)
    assert not (tmp_path / "out").exists()


def test_without_open_spiel_the_message_says_how_to_install_it(tmp_path):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', UCT_AND_RANDOM)
    script = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import evomcts\n"
        f"evomcts.run_league({str(spec)!r}, {str(tmp_path / 'out')!r}, quiet=True)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode != 0
    assert "OpenSpiel is not installed in this Python" in done.stderr
    assert "pip install open_spiel" in done.stderr


def test_records_of_another_open_spiel_version_are_replayed_with_a_warning(tmp_path, capfd):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', UCT_AND_RANDOM)
    out = tmp_path / "c4"
    run_league(spec, out, quiet=True)
    text = (out / "games.jsonl").read_text()
    version = json.dumps(pyspiel.__version__)
    (out / "games.jsonl").write_text(text.replace(f'"open_spiel":{version}', '"open_spiel":"0.0.1"'))
    assert cli("replay", out, "--quiet") == 0
    captured = capfd.readouterr()
    assert f"records made with OpenSpiel 0.0.1, now read with OpenSpiel {pyspiel.__version__}" in captured.err
    assert "4 reproduced" in captured.out
    # A resumed league holding them says so too.
    (out / "games.jsonl").write_text("".join((out / "games.jsonl").read_text().splitlines(keepends=True)[:2]))
    run_league(spec, out, resume=True, quiet=True)
    assert "records made with OpenSpiel 0.0.1" in capfd.readouterr().err


def test_the_module_entry_point_runs_the_command_line(tmp_path):
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', UCT_AND_RANDOM)
    out = tmp_path / "c4"
    done = subprocess.run(
        [sys.executable, "-m", "evomcts", "league", str(spec), "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Win rate" in done.stdout and (out / "standings.csv").exists()
    bad = subprocess.run([sys.executable, "-m", "evomcts", "league", str(tmp_path / "none.ron")], capture_output=True, text=True)
    assert bad.returncode == 2 and "none.ron" in bad.stderr


def test_the_binary_reads_an_open_spiel_run_and_refuses_to_play_one(tmp_path):
    binary = os.environ.get("EVOMCTS_BIN")
    if not binary:
        if os.environ.get("CI"):
            pytest.fail("EVOMCTS_BIN is not set (tests/python/run.sh sets it)")
        pytest.skip("EVOMCTS_BIN names no evomcts binary")
    spec = league_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', UCT_AND_RANDOM)
    out = tmp_path / "c4"
    run_league(spec, out, quiet=True)
    table = subprocess.run([binary, "table", str(out)], capture_output=True, text=True)
    assert table.returncode == 0, table.stderr
    assert "UCT 20" in table.stdout
    report = subprocess.run([binary, "report", str(out), "--out", str(tmp_path / "report")], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report" / "games" / "game-0.html").read_text()
    assert "python -m evomcts report" in page
    played = subprocess.run([binary, "league", str(spec), "--out", str(tmp_path / "again")], capture_output=True, text=True)
    assert played.returncode == 2 and "played from the Python package" in played.stderr
    assert not (tmp_path / "again").exists()


def test_the_games_evomcts_plays_include_the_peer_checks_and_exclude_the_rest():
    for name in ["connect_four", "breakthrough", "backgammon", "pig", "hex", "chess"]:
        assert _evomcts.open_spiel_refusal(name) is None, name
    assert "IMPERFECT_INFORMATION" in _evomcts.open_spiel_refusal("leduc_poker")


def test_commands_that_start_the_binary_on_an_allocation_refuse_inside_python(tmp_path, capfd):
    spec = evolve_spec(tmp_path / "c4.ron", 'OpenSpiel(name: "connect_four")', seed=1, generations=1, samples=2)
    assert cli("evolve", spec, "--out", tmp_path / "run", "--srun") == 2
    assert "--srun starts the evomcts binary on the allocation" in capfd.readouterr().err
    assert not (tmp_path / "run").exists()


def test_bench_search_refuses_a_game_over_at_its_start(tmp_path):
    """OpenSpiel's checkers on 6×6 is over at its start (no legal move): `bench search` says so
    with status 2 instead of waiting for a decision that never comes (issue 53, cause 12)."""
    done = subprocess.run(
        [sys.executable, "-m", "evomcts", "bench", "search", "--game",
         'OpenSpiel(name: "checkers", params: {"rows": 6, "columns": 6})', "--positions", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "over at its start" in done.stderr or "reach no decision" in done.stderr, done.stderr
