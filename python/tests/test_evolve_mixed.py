"""An evolution whose fitness mixes OpenSpiel's games with a native one (``fitness:
Mixed(games: [..])``, docs/evolution.md, "One formula for several games"): it runs in this
process (``python -m evomcts`` and ``evomcts.evolve``, one thread), plays sample s on game s mod
k, and resumes to the same files.

Needs ``open_spiel``; without it these tests skip, except under CI (``CI`` set).
"""

import re
from pathlib import Path

from conftest import require

from evomcts import _evomcts, evolve, load_run

SPEC = """(
    name: "mixed-open-spiel",
    seed: 21,
    strategy: (mu: 1, lambda: 2, generations: 2, plus: true),
    noise: (samples: 4, elites: 1, elite_samples: 2),
    fitness: Mixed(games: [
        (
            game: OpenSpiel(name: "tic_tac_toe"),
            candidate: (sims: 10, c_e: 0.5),
            baseline: Mcts(sims: 10, c_e: 0.5),
            score: WinRate,
        ),
        (
            game: OpenSpiel(name: "nim"),
            candidate: (sims: 10, c_e: 0.5),
            baseline: Mcts(sims: 10, c_e: 0.5),
            score: WinRate,
        ),
        (game: Pig(target: 10), candidate: (sims: 10, c_e: 1.0), baseline: Random, score: WinRate),
    ]),
)
"""


def files(folder: Path):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != ".evomcts.lock"}


def test_a_mix_of_open_spiel_and_native_games_evolves_and_resumes_to_the_same_files(tmp_path):
    require("pyspiel")
    spec = tmp_path / "mixed.ron"
    spec.write_text(SPEC)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    # The command line in this process (`python -m evomcts evolve`), then the API in two calls.
    assert _evomcts.main(["evomcts", "evolve", str(spec), "--out", str(whole), "--quiet"]) == 0
    evolve(spec, parts, stop_after=1, quiet=True)
    done = evolve(spec, parts, resume=True, quiet=True)
    assert done["generation"] == 2
    assert files(whole) == files(parts)
    assert load_run(whole).kind == "evolution"
    # The seed formula played the generation's 4 samples and the elite's 2, sample s on game
    # s mod 3: 2 + 1, 1 + 1 and 1 + 0 samples. On the two OpenSpiel games its baseline is
    # itself, so every sample is one win in two.
    text = (whole / "gen-000.ron").read_text()
    reference = text[text.index("reference: Member(") : text.index("parents: [")]
    assert [int(n) for n in re.findall(r"samples: (\d+)", reference)] == [6, 3, 2, 1]
    means = [float(m) for m in re.findall(r"mean: ([0-9.]+)", reference)]
    m2s = [float(m) for m in re.findall(r"m2: ([0-9.]+)", reference)]
    assert means[1:3] == [0.5, 0.5] and m2s[1:3] == [0.0, 0.0], reference
