"""Game and Move: a Carcassonne game driven move by move, as an environment."""

import copy
import random

import pytest

from evomcts import EvomctsError, Game, Move, random_game


def play_out(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))


def test_a_game_starts_with_a_tile_to_place_and_ends_after_the_stack():
    game = Game(7)
    assert (game.tile_seed, game.turns_played, game.to_move) == (7, 0, 0)
    assert game.tile is not None and len(game.tile) == 1
    assert game.scores == (0, 0) and game.supplies == (7, 7)
    assert sum(game.hidden_tiles().values()) == 71 - 1  # the drawn tile is not hidden
    moves = game.legal_moves()
    assert moves and len(set(moves)) == len(moves)
    game.apply(moves[0])
    assert game.turns_played == 1 and game.to_move == 1
    play_out(game, 1)
    assert game.is_over and game.tile is None and game.legal_moves() == []
    assert game.virtual_scores == game.scores
    assert 60 <= game.turns_played <= 71
    with pytest.raises(EvomctsError, match="the game is over"):
        game.apply(moves[0])


def test_the_same_seeds_play_the_same_game_and_a_copy_is_independent():
    a, b = Game(3), Game(3)
    c = a.copy()
    play_out(a, 5)
    play_out(b, 5)
    assert a.scores == b.scores and a.board_text() == b.board_text()
    assert c.turns_played == 0 and not c.is_over
    play_out(c, 5)
    assert c.scores == a.scores
    d = copy.deepcopy(Game(3))
    assert d.tile == Game(3).tile


def test_an_illegal_move_is_refused_and_changes_nothing():
    game = Game(11)
    before = game.board_text()
    with pytest.raises(EvomctsError, match=r"illegal move \(0,0\) r0 no meeple for tile"):
        game.apply(Move(0, 0, 0))
    assert game.board_text() == before and game.turns_played == 0


def test_moves_print_as_records_do():
    m = Move(1, -2, 3, meeple=0)
    assert (m.x, m.y, m.rotation, m.meeple) == (1, -2, 3, 0)
    assert str(m) == "(1,-2) r3 meeple@0"
    assert str(Move(1, 0, 0)) == "(1,0) r0 no meeple"
    assert m == Move(1, -2, 3, 0) and hash(m) == hash(Move(1, -2, 3, 0))
    assert repr(Move(1, 0, 2)) == "Move(x=1, y=0, rotation=2, meeple=None)"


def test_the_board_as_text_and_as_svg():
    game = Game(2)
    game.apply_random(1)
    text = game.board_text()
    assert "player 1" in text.lower() or "score" in text.lower()
    svg = game.board_svg()
    assert svg.startswith("<svg") and "Turn 1" in svg


def test_rules_options_are_those_of_evomcts_play():
    official = Game(9)
    bottom = Game(9, bottom_of_stack=True)
    first_edition = Game(9, two_tile_city_scores_two=True)
    for g in (official, bottom, first_edition):
        play_out(g, 2)
        assert g.is_over


def test_a_random_game_in_one_call_is_a_whole_game():
    scores = random_game(1, 1)
    assert scores == random_game(1, 1)
    assert all(s >= 0 for s in scores) and sum(scores) > 0
    assert random_game(1, 1, bottom_of_stack=True) is not None
