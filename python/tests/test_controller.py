"""Controllers from the spec syntax of league files: a decision, a whole game, bad specs."""

import pytest

from evomcts import Controller, EvomctsError, Game, play


def test_each_kind_of_controller_decides_a_legal_move():
    game = Game(4)
    for _ in range(5):
        game.apply_random(game.turns_played)
    for spec in ["Random", "Mcts(sims: 30, c_e: 1.0)", "Star(depth: 1, probing: 0)"]:
        controller = Controller(spec, seed=1)
        move = controller.decide(game)
        assert move in game.legal_moves(), spec


def test_a_decision_depends_on_the_seed_only():
    game = Game(6)
    a = Controller("Mcts(sims: 40)", seed=9).decide(game)
    b = Controller("Mcts(sims: 40)", seed=9).decide(game)
    assert a == b


def test_a_formula_file_is_read_relative_to_the_working_directory(data, monkeypatch):
    monkeypatch.chdir(data)
    c = Controller('Mcts(sims: 20, selection: FormulaFile("formula.txt"))')
    assert "Q + C*sqrt(ln(N)/n)" in c.spec
    assert c.decide(Game(1)) in Game(1).legal_moves()


def test_a_spec_without_reward_or_final_move_shows_carcassonnes():
    # Carcassonne is played for points: the paper's reward and final move, written out.
    spec = Controller("Mcts(sims: 20)").spec.replace(" ", "")
    assert "reward:ScoreDiff" in spec and "final_move:HighestQ" in spec, spec
    named = Controller("Mcts(sims: 20, reward: WinLoss)").spec.replace(" ", "")
    assert "reward:WinLoss" in named, named


def test_bad_specs_name_the_place_or_the_field():
    with pytest.raises(EvomctsError, match=r"^<controller>:1:\d+: "):
        Controller("Mcts(sims: 30")
    with pytest.raises(EvomctsError, match="<controller>: field `spec`: .*`sims`"):
        Controller("Mcts(sims: 0)")
    with pytest.raises(EvomctsError, match="field `selection`: cannot read .*missing.txt"):
        Controller('Mcts(selection: FormulaFile("missing.txt"))')
    with pytest.raises(EvomctsError, match="<controller>:1:8: Unexpected variant named `Minimax`"):
        Controller("Minimax")


def test_play_returns_a_record_and_replays_the_same_game():
    mcts, rand = Controller("Mcts(sims: 20)", seed=3), Controller("Random", seed=4)
    record = play(mcts, rand, 12)
    assert record == play(mcts, rand, 12)
    assert record["tile_seed"] == 12
    assert len(record["moves"]) == sum(record["turns"])
    assert record["final_scores"] == record["virtual_scores"][-1] or record["final_scores"]
    first, second = record["final_scores"]
    assert record["winner"] == (0 if first > second else 1 if second > first else None)
    swapped = play(rand, mcts, 12)
    assert swapped["draws"][: len(record["draws"])] == record["draws"][: len(swapped["draws"])]
    bottom = play(rand, rand, 12, bottom_of_stack=True)
    assert bottom["rules"]["unplaceable"] == "BottomOfStack"


def test_a_controller_cannot_decide_after_the_game_ends():
    game = Game(1)
    while not game.is_over:
        game.apply_random(game.turns_played)
    with pytest.raises(EvomctsError, match="the game is over"):
        Controller("Random").decide(game)
