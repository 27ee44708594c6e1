//! `Game` and `Move`: a Carcassonne game as an environment, the state a controller sees plus
//! the referee's stack, and random games in one call for speed.

use evomcts_games::carcassonne::{
    draw_next, play_random_game, GameError, GameState, Move, Rules, TileKind, TileStack,
    Unplaceable,
};
use evomcts_games::GameRng;
use pyo3::prelude::*;
use rand::SeedableRng;

use crate::raise;

/// One turn's choice: where the drawn tile goes (``x``, ``y`` relative to the start tile, y
/// growing to the south), ``rotation`` in quarter turns clockwise, and ``meeple``, the segment
/// of the tile a meeple is put on (None for no meeple).
#[pyclass(module = "evomcts._evomcts", name = "Move", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) inner: Move,
}

#[pymethods]
impl PyMove {
    #[new]
    #[pyo3(signature = (x, y, rotation, meeple=None))]
    fn new(x: i8, y: i8, rotation: u8, meeple: Option<u8>) -> Self {
        PyMove {
            inner: Move {
                x,
                y,
                rotation,
                meeple,
            },
        }
    }

    /// Column of the square, relative to the start tile.
    #[getter]
    fn x(&self) -> i8 {
        self.inner.x
    }

    /// Row of the square, relative to the start tile (south is positive).
    #[getter]
    fn y(&self) -> i8 {
        self.inner.y
    }

    /// Quarter turns clockwise.
    #[getter]
    fn rotation(&self) -> u8 {
        self.inner.rotation
    }

    /// The segment the meeple goes on, or None.
    #[getter]
    fn meeple(&self) -> Option<u8> {
        self.inner.meeple
    }

    /// As records and the command line print a move: ``(1,0) r2 meeple@1``.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let meeple = self
            .inner
            .meeple
            .map_or("None".to_string(), |m| m.to_string());
        format!(
            "Move(x={}, y={}, rotation={}, meeple={meeple})",
            self.inner.x, self.inner.y, self.inner.rotation
        )
    }
}

/// The rules the command line's flags select (`evomcts play`, league specs' `rules`).
pub(crate) fn rules(bottom_of_stack: bool, two_tile_city_scores_two: bool) -> Rules {
    Rules {
        unplaceable: if bottom_of_stack {
            Unplaceable::BottomOfStack
        } else {
            Unplaceable::Discard
        },
        two_tile_city_scores_two,
    }
}

fn game_error(err: GameError) -> PyErr {
    raise(err)
}

/// A two-player game of Carcassonne on the tile sequence of ``tile_seed``, with a tile drawn
/// and waiting to be placed (see ``tile``) until the game is over.
///
/// ``bottom_of_stack``: an unplaceable tile goes back under the stack instead of leaving the
/// game; ``two_tile_city_scores_two``: the first edition's scoring of two-tile cities (the
/// flags of ``evomcts play``). The game holds the shuffled stack as the referee does; what a
/// controller may read (the board, scores, supplies, the hidden tiles as a multiset) is what
/// the methods return, never the stack's order.
#[pyclass(module = "evomcts._evomcts", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) state: GameState,
    stack: TileStack,
    tile_seed: u64,
}

impl PyGame {
    /// Draws until a tile is ready to place; at the end of the stack, the end-of-game scoring.
    fn draw(&mut self) -> PyResult<()> {
        if !draw_next(&mut self.state, &mut self.stack).map_err(game_error)? {
            self.state.finish();
        }
        Ok(())
    }

    pub(crate) fn apply_move(&mut self, mv: Move) -> PyResult<()> {
        if self.state.is_finished() {
            return Err(game_error(GameError::GameOver));
        }
        self.state.apply(mv).map_err(game_error)?;
        self.draw()
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (tile_seed, *, bottom_of_stack=false, two_tile_city_scores_two=false))]
    fn new(
        tile_seed: u64,
        bottom_of_stack: bool,
        two_tile_city_scores_two: bool,
    ) -> PyResult<Self> {
        let mut game = PyGame {
            state: GameState::new(rules(bottom_of_stack, two_tile_city_scores_two)),
            stack: TileStack::shuffled(tile_seed),
            tile_seed,
        };
        game.draw()?;
        Ok(game)
    }

    /// The seed of the tile sequence.
    #[getter]
    fn tile_seed(&self) -> u64 {
        self.tile_seed
    }

    /// The tile to place, as its letter A–X of the reference table, or None when the game is over.
    #[getter]
    fn tile(&self) -> Option<String> {
        self.state.drawn().map(|t| t.to_string())
    }

    /// Every legal move for the tile to place, in the engine's deterministic order (empty when
    /// the game is over).
    fn legal_moves(&self) -> Vec<PyMove> {
        let mut moves = Vec::new();
        if !self.state.is_finished() {
            self.state.legal_moves(&mut moves);
        }
        moves.into_iter().map(|inner| PyMove { inner }).collect()
    }

    /// Plays ``move`` for the player to move, then draws the next tile (or scores the end of
    /// the game). An illegal move raises ``EvomctsError`` and changes nothing.
    fn apply(&mut self, r#move: &PyMove) -> PyResult<()> {
        self.apply_move(r#move.inner)
    }

    /// Plays a uniformly random legal move (placement first, then a meeple option, as the
    /// command line's random player), drawn from a generator seeded with ``seed``; returns it.
    fn apply_random(&mut self, seed: u64) -> PyResult<PyMove> {
        let mv = self
            .state
            .random_move(&mut GameRng::seed_from_u64(seed))
            .ok_or_else(|| game_error(GameError::GameOver))?;
        self.apply_move(mv)?;
        Ok(PyMove { inner: mv })
    }

    /// The scores so far (final scores once the game is over), seat order.
    #[getter]
    fn scores(&self) -> (i32, i32) {
        let [a, b] = self.state.scores();
        (a, b)
    }

    /// The scores if the game ended now: every incomplete feature scored as at the end.
    #[getter]
    fn virtual_scores(&self) -> (i32, i32) {
        let [a, b] = self.state.virtual_scores();
        (a, b)
    }

    /// The seat (0 or 1) whose turn it is.
    #[getter]
    fn to_move(&self) -> usize {
        self.state.to_move()
    }

    /// Whether the game is over (its end-of-game scoring done).
    #[getter]
    fn is_over(&self) -> bool {
        self.state.is_finished()
    }

    /// Turns played so far.
    #[getter]
    fn turns_played(&self) -> usize {
        self.state.turns_played()
    }

    /// Meeples each seat still has in hand.
    #[getter]
    fn supplies(&self) -> (u8, u8) {
        (self.state.supply(0), self.state.supply(1))
    }

    /// The hidden tiles as a multiset: letter → count (their order is the stack's secret).
    fn hidden_tiles(&self) -> std::collections::BTreeMap<String, u8> {
        TileKind::ALL
            .iter()
            .map(|k| (k.to_string(), self.state.hidden_counts()[k.index()]))
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// A copy of the game (board, scores and the stack, so it draws the same tiles).
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// The board as text with the scores and supplies, as ``evomcts play`` prints it.
    fn board_text(&self) -> String {
        evomcts_games::carcassonne::render::render_board(&self.state)
    }

    /// The board as an SVG picture, as ``evomcts plot board`` draws it.
    fn board_svg(&self) -> PyResult<String> {
        evomcts_analysis::plots::board::board_svg(&self.state).map_err(raise)
    }

    fn __repr__(&self) -> String {
        let (a, b) = self.scores();
        format!(
            "<Game tile_seed={} turn={} scores=({a}, {b}){}>",
            self.tile_seed,
            self.state.turns_played(),
            if self.state.is_finished() {
                " over"
            } else {
                ""
            }
        )
    }
}

/// Plays one whole random game in one call, as ``evomcts bench engine`` plays its games: on
/// the tile sequence of ``tile_seed``, both seats choosing uniformly at random from a generator
/// seeded with ``seed``. Returns the final scores.
#[pyfunction]
#[pyo3(signature = (tile_seed, seed, *, bottom_of_stack=false, two_tile_city_scores_two=false))]
fn random_game(
    tile_seed: u64,
    seed: u64,
    bottom_of_stack: bool,
    two_tile_city_scores_two: bool,
) -> (i32, i32) {
    let rules = rules(bottom_of_stack, two_tile_city_scores_two);
    let state = play_random_game(
        rules,
        tile_seed,
        &mut GameRng::seed_from_u64(seed),
        |_, _| {},
    );
    let [a, b] = state.scores();
    (a, b)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMove>()?;
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(random_game, m)?)?;
    Ok(())
}
