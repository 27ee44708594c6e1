"""Leagues, evolution and tuning runs into run folders, their tables, bad input and Ctrl-C."""

import filecmp
import os
import signal
import threading
from pathlib import Path

import pytest

import evomcts
from evomcts import EvomctsError, evolve, load_run, run_league, tune

from conftest import require


def test_a_league_runs_writes_its_tables_and_loads_as_data_frames(data, tmp_path):
    out = tmp_path / "league"
    outcome = run_league(data / "tiny_league.ron", out, threads=2, quiet=True)
    assert outcome["games"] == outcome["played_now"] == 3 * 2 * 2
    assert outcome["already_recorded"] == 0
    for name in ["spec.ron", "games.jsonl", "standings.csv", "ratings.csv", "games.csv"]:
        assert (out / name).exists(), name
    run = load_run(out)
    assert run.kind == "league"
    pandas = require("pandas")
    assert isinstance(run.standings, pandas.DataFrame)
    assert len(run.games) == 12 and len(run.standings) == 3 and len(run.ratings) == 3
    # The tables equal those the league wrote (a pure function of the records).
    written = pandas.read_csv(out / "standings.csv")
    assert run.standings.equals(written)
    assert run.games["tile_seed"].map(type).eq(str).all()
    assert run.logbook is None


def test_results_do_not_depend_on_threads_and_a_finished_run_resumes_to_the_same(data, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    run_league(data / "tiny_league.ron", one, threads=1, quiet=True)
    run_league(data / "tiny_league.ron", two, threads=2, quiet=True)
    assert (one / "standings.csv").read_text() == (two / "standings.csv").read_text()
    with pytest.raises(EvomctsError, match="already holds 12 recorded games; pass --resume"):
        run_league(data / "tiny_league.ron", one, quiet=True)
    again = run_league(data / "tiny_league.ron", one, resume=True, quiet=True)
    assert (again["played_now"], again["already_recorded"]) == (0, 12)


def test_tables_as_lists_of_dicts_without_pandas(data, tmp_path, monkeypatch):
    out = tmp_path / "league"
    run_league(data / "tiny_league.ron", out, threads=2, quiet=True)
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    run = load_run(out)
    assert isinstance(run.standings, list) and len(run.standings) == 3
    row = run.standings[0]
    assert row["position"] == 1 and isinstance(row["points"], int)
    assert isinstance(run.games[0]["tile_seed"], int)


def test_bad_league_input_names_the_file_and_the_field_or_place(data, tmp_path):
    with pytest.raises(EvomctsError, match=r"cannot read .*missing.ron"):
        run_league(data / "missing.ron", tmp_path / "a")
    with pytest.raises(EvomctsError, match=r"bad_field.ron: field `games_per_match`: must be between 1"):
        run_league(data / "bad_field.ron", tmp_path / "b")
    with pytest.raises(EvomctsError, match=r"bad_syntax.ron:7:\d+: "):
        run_league(data / "bad_syntax.ron", tmp_path / "c")
    with pytest.raises(EvomctsError, match="invalid value for threads"):
        run_league(data / "tiny_league.ron", tmp_path / "d", threads=0)
    assert not (tmp_path / "b").exists() and not (tmp_path / "d").exists()
    with pytest.raises(EvomctsError, match="spec.ron"):
        load_run(tmp_path / "no-such-run")


def test_an_evolution_runs_resumes_byte_for_byte_and_loads_its_logbook(data, tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    result = evolve(data / "tiny_evolve.ron", whole, threads=2, quiet=True)
    assert (result["generation"], result["generations"]) == (3, 3)
    assert result["resumed_from"] is None
    assert evomcts.Formula(result["champion"])  # parses
    first = evolve(data / "tiny_evolve.ron", parts, threads=1, stop_after=1, quiet=True)
    assert first["generation"] == 1
    with pytest.raises(EvomctsError, match="--resume"):
        evolve(data / "tiny_evolve.ron", parts, quiet=True)
    rest = evolve(data / "tiny_evolve.ron", parts, threads=2, resume=True, quiet=True)
    assert (rest["generation"], rest["resumed_from"]) == (3, 1)
    for g in range(4):
        name = f"gen-{g:03}.ron"
        assert filecmp.cmp(whole / name, parts / name, shallow=False), name
    run = load_run(whole)
    assert run.kind == "evolution" and run.standings is None
    assert len(run.logbook) == 4 and len(run.hall_of_fame) >= 1


def test_bad_evolution_input_names_the_field(data, tmp_path):
    spec = tmp_path / "bad.ron"
    text = (data / "tiny_evolve.ron").read_text().replace("mu: 2", "mu: 0")
    spec.write_text(text)
    with pytest.raises(EvomctsError, match=r"bad.ron: field `strategy"):
        evolve(spec, tmp_path / "out")


def test_a_tuning_run_resumes_byte_for_byte_and_refuses_a_bad_field(data, tmp_path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    result = tune(data / "tiny_tune.ron", whole, threads=2, quiet=True)
    assert (result["steps"], result["steps_done"], result["played_now"]) == (12, 12, 12)
    assert set(result["tuned"]) == {"C_E", "W1"} and result["start"] == {"C_E": 0.5, "W1": 1.0}
    low, high = result["paired_difference"][1:]
    assert low <= result["paired_difference"][0] <= high
    first = tune(data / "tiny_tune.ron", parts, threads=1, stop_after=5, quiet=True)
    assert first["steps_done"] == 5 and "tuned" not in first
    rest = tune(data / "tiny_tune.ron", parts, threads=2, resume=True, quiet=True)
    assert rest["played_now"] == 7
    for name in ["tune.csv", "trajectory.csv", "summary.md", "tuned.ron", "reestimate/games.csv"]:
        assert filecmp.cmp(whole / name, parts / name, shallow=False), name
    spec = tmp_path / "bad.ron"
    spec.write_text((data / "tiny_tune.ron").read_text().replace("budget: 48", "budget: 7"))
    with pytest.raises(EvomctsError, match=r"bad.ron: field `budget`"):
        tune(spec, tmp_path / "out")


def interrupt_after(seconds: float) -> threading.Timer:
    """Sends SIGINT (what Ctrl-C sends) to this process after `seconds`."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def long_league(tmp_path: Path) -> Path:
    spec = tmp_path / "long.ron"
    spec.write_text(
        """(name: "long", games_per_match: 200, seed: 5,
            controllers: [(name: "MCTS", spec: Mcts(sims: 100)), (name: "Random", spec: Random)])"""
    )
    return spec


def test_ctrl_c_stops_a_league_which_resumes_later(tmp_path):
    spec, out = long_league(tmp_path), tmp_path / "league"
    timer = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        run_league(spec, out, threads=2, quiet=True)
    timer.cancel()
    recorded = len((out / "games.jsonl").read_text().splitlines())
    assert recorded < 400
    # Finishing the rest would take long: one more short interruption shows it resumes.
    timer = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        run_league(spec, out, threads=2, resume=True, quiet=True)
    timer.cancel()
    assert len((out / "games.jsonl").read_text().splitlines()) >= recorded


def test_ctrl_c_stops_an_evolution_after_a_generation(data, tmp_path):
    spec = tmp_path / "long.ron"
    spec.write_text((data / "tiny_evolve.ron").read_text().replace("generations: 3", "generations: 100000"))
    out = tmp_path / "evolution"
    timer = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        evolve(spec, out, threads=2, quiet=True)
    timer.cancel()
    written = sorted(p.name for p in out.glob("gen-*.ron"))
    assert written and len(written) < 100001
    resumed = evolve(spec, out, resume=True, stop_after=len(written), quiet=True)
    assert resumed["resumed_from"] == len(written) - 1
    assert resumed["generation"] == len(written)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, runs=-1, quiet=True), "runs must be between 1 and 64, got -1"),
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, runs=0, quiet=True), "runs must be between 1 and 64, got 0"),
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, runs=65, quiet=True), "runs must be between 1 and 64, got 65"),
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, stop_after=-1, quiet=True), "stop_after must be at least 0, got -1"),
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, threads=-1, quiet=True), "threads must be between 1 and 1024, got -1"),
        (lambda d, o: evolve(d / "tiny_evolve.ron", o, runs=2, tournament_samples=-5, quiet=True), "tournament_samples must be between 2 and"),
        (lambda d, o: tune(d / "tiny_tune.ron", o, threads=-1, quiet=True), "threads must be between 1 and 1024, got -1"),
        (lambda d, o: tune(d / "tiny_tune.ron", o, stop_after=-1, quiet=True), "stop_after must be at least 0, got -1"),
        (lambda d, o: run_league(d / "tiny_league.ron", o, threads=-2, quiet=True), "threads must be between 1 and 1024, got -2"),
        (lambda d, o: tune(d / "tiny_tune.ron", o, threads=10**30, quiet=True), "threads must be between 1 and 1024, got 1000000000000000000000000000000"),
    ],
)
def test_a_count_out_of_range_is_refused_with_the_command_lines_range_not_an_overflow(data, tmp_path, call, message):
    out = tmp_path / "out"
    with pytest.raises(EvomctsError, match=message):
        call(data, out)
    assert not out.exists()


@pytest.mark.parametrize("argument", ["runs", "threads", "stop_after", "tournament_samples"])
def test_a_bool_or_a_float_is_not_taken_for_a_count(data, tmp_path, argument):
    out = tmp_path / "out"
    extra = {"runs": 2} if argument == "tournament_samples" else {}
    for value in [True, 2.0]:
        with pytest.raises(TypeError, match=f"argument `{argument}` must be an int, got"):
            evolve(data / "tiny_evolve.ron", out, quiet=True, **{**extra, argument: value})
    assert not out.exists()
