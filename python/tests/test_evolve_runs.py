"""``evomcts.evolve(spec, out, runs=K)``: K independent runs of a tiny bandit evolution
(data/tiny_evolve.ron, about a second) and the tournament of their champions, as ``evomcts
evolve SPEC --runs K``; stopped after a generation, it resumes to the same bytes."""

import csv

import pytest

import evomcts
from evomcts import EvomctsError, evolve


def files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_runs_write_their_folders_and_the_tournament_and_resume_to_the_same_bytes(data, tmp_path):
    spec = data / "tiny_evolve.ron"
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    result = evolve(spec, whole, runs=2, tournament_samples=10, threads=2, quiet=True)
    generations = result["generations"]
    assert [r["folder"] for r in result["runs"]] == [whole / "run-1", whole / "run-2"]
    assert [r["generation"] for r in result["runs"]] == [generations, generations]
    assert not (whole / "run-3").exists()
    for i, run in enumerate(result["runs"], start=1):
        folder = whole / f"run-{i}"
        assert (folder / f"gen-{generations:03}.ron").exists()
        assert (folder / "champion.txt").read_text().strip() == run["champion"]
        assert evomcts.load_run(folder).kind == "evolution"
    # The tournament: the seed formula and each run's champion, one of them crowned.
    assert result["tournament_csv"] == whole / "tournament.csv" and result["tournament_md"].exists()
    with open(whole / "tournament.csv", newline="") as f:
        entrants = list(csv.DictReader(f))
    assert sorted(s for e in entrants for s in e["sources"].split(";")) == ["run-1", "run-2", "seed"]
    crowned = [e for e in entrants if e["crowned"] == "true"]
    assert len(crowned) == 1 and crowned[0]["formula"] == result["crowned"]
    assert result["crowned_sources"] == crowned[0]["sources"].split(";")
    # tournament_samples=10: each entrant still in plays at least 10 seeds, all of them
    # together at most 10 a head (the racing's budget).
    assert all(int(e["samples"]) >= 10 for e in entrants if e["dropped_after"] == "")
    assert sum(int(e["samples"]) for e in entrants) <= 10 * len(entrants)
    assert (whole / "champion.txt").read_text().strip() == result["crowned"]

    first = evolve(spec, parts, runs=2, tournament_samples=10, threads=1, stop_after=1, quiet=True)
    assert [r["generation"] for r in first["runs"]] == [1, 1] and "crowned" not in first
    assert not (parts / "tournament.csv").exists() and not (parts / "champion.txt").exists()
    with pytest.raises(EvomctsError, match="--resume"):
        evolve(spec, parts, runs=2, tournament_samples=10, quiet=True)
    rest = evolve(spec, parts, runs=2, tournament_samples=10, threads=2, resume=True, quiet=True)
    assert rest["crowned"] == result["crowned"]
    assert len(files(whole)) > 20 and files(whole) == files(parts)


def test_tournament_samples_without_runs_is_refused(data, tmp_path):
    with pytest.raises(EvomctsError, match="tournament_samples is for runs=K"):
        evolve(data / "tiny_evolve.ron", tmp_path / "out", tournament_samples=10, quiet=True)
    assert not (tmp_path / "out").exists()
