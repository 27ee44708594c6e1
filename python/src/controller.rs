//! Controllers from the spec syntax of league and evolution files, one decision at a time or
//! a whole game between two of them.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use evomcts_games::carcassonne::{play_game, GameState, Move};
use evomcts_games::{Controller, GameRng};
use evomcts_search::{Agent, ControllerSpec};
use pyo3::prelude::*;
use rand::SeedableRng;

use crate::game::{rules, PyGame, PyMove};
use crate::{interruptible, raise};

/// A controller written as a league file writes one: ``Controller("Mcts(sims: 400, c_e:
/// 2.0)")``, ``Controller("Star(depth: 2, probing: 1)")``, ``Controller("Random")``. Files it
/// names (``FormulaFile(...)``, an ES grammar) are read relative to the working directory. All
/// of its random choices come from ``seed``. An MCTS spec that names no reward or final move
/// plays Carcassonne's, ``ScoreDiff`` and ``HighestQ``, and ``spec`` writes them out.
#[pyclass(module = "evomcts._evomcts", name = "Controller")]
pub struct PyController {
    spec: ControllerSpec,
    seed: u64,
    /// Behind a mutex only to make the class `Sync`, as Python objects must be; `decide`
    /// holds `&mut self`, so it never waits for the lock.
    agent: Mutex<Box<dyn Agent<GameState>>>,
}

fn build(spec: &ControllerSpec, seed: u64) -> PyResult<Box<dyn Agent<GameState>>> {
    spec.build(seed).map_err(raise)
}

#[pymethods]
impl PyController {
    #[new]
    #[pyo3(signature = (spec, seed=0))]
    fn new(spec: &str, seed: u64) -> PyResult<Self> {
        let mut spec =
            evomcts_records::bounds::parse_controller(spec, "<controller>", Path::new(""))
                .map_err(raise)?;
        spec.fill_defaults(<GameState as evomcts_games::Game>::OBJECTIVE);
        let agent = build(&spec, seed)?;
        Ok(PyController {
            spec,
            seed,
            agent: Mutex::new(agent),
        })
    }

    /// The controller's spec as RON, with the content of any file it named.
    #[getter]
    fn spec(&self) -> String {
        evomcts_records::runfs::ron_options()
            .to_string(&self.spec)
            .expect("a controller spec serialises")
    }

    /// The seed its random choices come from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The controller's move for ``game``'s tile to place, for the player to move. The
    /// controller keeps its random generator from one decision to the next; the GIL is
    /// released while it searches, on a copy of ``game`` (which another thread may change
    /// meanwhile). A controller serves one thread at a time.
    fn decide(slf: &Bound<'_, Self>, game: &Bound<'_, PyGame>) -> PyResult<PyMove> {
        let py = slf.py();
        let state = {
            let game = game.try_borrow().map_err(|_| crate::in_use("Game"))?;
            if game.state.drawn().is_none() {
                return Err(raise(evomcts_games::carcassonne::GameError::GameOver));
            }
            game.state.clone()
        };
        let mut this = slf
            .try_borrow_mut()
            .map_err(|_| crate::in_use("Controller"))?;
        let agent = this.agent.get_mut().map_err(|_| {
            raise(anyhow::anyhow!(
                "the controller failed in an earlier decision"
            ))
        })?;
        let inner = py.detach(move || agent.choose_move(&state));
        Ok(PyMove { inner })
    }

    fn __repr__(&self) -> String {
        format!("Controller({:?}, seed={})", self.spec(), self.seed)
    }
}

/// A seat's controller that, once `cancel` is set, plays random moves so that an interrupted
/// game ends quickly (its record is thrown away).
struct Cancellable<'a> {
    agent: Box<dyn Agent<GameState>>,
    cancel: &'a AtomicBool,
    fallback: GameRng,
}

impl Controller<GameState> for Cancellable<'_> {
    fn choose_move(&mut self, state: &GameState) -> Move {
        if self.cancel.load(Ordering::Relaxed) {
            if let Some(mv) = state.random_move(&mut self.fallback) {
                return mv;
            }
        }
        self.agent.choose_move(state)
    }
}

/// Plays one game between fresh copies of ``a`` (first seat) and ``b`` (second seat), each
/// built from its spec and seed (the controllers passed are not changed, so the same call
/// plays the same game), on the tile sequence of ``tile_seed``. Returns the game's record as
/// JSON, the `game` field of a league record. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (a, b, tile_seed, *, bottom_of_stack=false, two_tile_city_scores_two=false))]
fn play_json(
    py: Python<'_>,
    a: &Bound<'_, PyController>,
    b: &Bound<'_, PyController>,
    tile_seed: u64,
    bottom_of_stack: bool,
    two_tile_city_scores_two: bool,
) -> PyResult<String> {
    let rules = rules(bottom_of_stack, two_tile_city_scores_two);
    let cancel = AtomicBool::new(false);
    // Each controller is read (its spec and seed) and let go before the game starts.
    let seat = |c: &Bound<'_, PyController>| -> PyResult<Cancellable<'_>> {
        let c = c.try_borrow().map_err(|_| crate::in_use("Controller"))?;
        Ok(Cancellable {
            agent: build(&c.spec, c.seed)?,
            cancel: &cancel,
            fallback: GameRng::seed_from_u64(c.seed),
        })
    };
    let (mut first, mut second) = (seat(a)?, seat(b)?);
    let played = interruptible(py, &cancel, || {
        play_game(rules, tile_seed, [&mut first, &mut second])
    })?;
    let (_, record) = played.map_err(raise)?;
    Ok(serde_json::to_string(&record).expect("a record serialises"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyController>()?;
    m.add_function(wrap_pyfunction!(play_json, m)?)?;
    Ok(())
}
