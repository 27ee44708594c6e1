//! OpenSpiel's games for every run: [`PyState`] is the game interface's `ExternalState` over a
//! `pyspiel` state, and [`PySpielProvider`], installed when the module loads, makes specs that
//! name `OpenSpiel(name: …, params: …)` playable in this process (leagues, evolution,
//! validation, replay and report alike). `pyspiel` is imported at the first such spec, so the
//! package works without OpenSpiel until one is named.
//!
//! Cost: each state method is a call into Python under the GIL. The state caches who is to
//! move (asked once after each action), so a step down the tree is two calls: `apply_action`,
//! `current_player` (with `legal_actions` at a new node); a rollout is played in C++ by
//! `pyspiel.evaluate_bots` (four calls, its returns kept), and a simulation adds one `clone`.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use evomcts_games::external::{ExternalGame, ExternalPlayer, ExternalState};
use evomcts_runs::arena::open_spiel::{
    install_provider, LoadedGame, OpenSpielGame, OpenSpielParam, OpenSpielProvider, OpenSpielSpec,
};
use evomcts_search::{Agent, ControllerSpec};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};

use crate::raise;

/// A `pyspiel.State` behind the game interface.
#[derive(Debug)]
pub struct PyState {
    state: Py<PyAny>,
    /// Who is to move: the state changes only through `apply_action`, which asks again.
    player: ExternalPlayer,
    max_outcomes: usize,
    game_name: std::sync::Arc<str>,
    /// The returns of a rollout played in one call (the state is then over).
    rolled_out: Option<[f64; 2]>,
}

/// OpenSpiel's player id as the interface's player (chance −1, terminal −4, simultaneous −2).
fn player_of(id: i64) -> ExternalPlayer {
    match id {
        0 | 1 => ExternalPlayer::Player(id as usize),
        -1 => ExternalPlayer::Chance,
        // A terminal state, and anything a game of the kinds `load` admits never gives.
        _ if id < 0 => ExternalPlayer::Terminal,
        _ => ExternalPlayer::Player(id as usize),
    }
}

/// A failed call into a state `load` admitted: a broken contract, so a panic with Python's
/// message (the run's error reports it with the game).
fn broken<T>(what: &str, result: PyResult<T>) -> T {
    result.unwrap_or_else(|e| panic!("OpenSpiel's `{what}` failed: {e}"))
}

impl PyState {
    fn new(py: Python<'_>, state: Py<PyAny>, max_outcomes: usize, name: &str) -> PyResult<Self> {
        let player = player_of(
            state
                .call_method0(py, intern!(py, "current_player"))?
                .extract(py)?,
        );
        Ok(PyState {
            state,
            player,
            max_outcomes,
            game_name: name.into(),
            rolled_out: None,
        })
    }
}

impl PyState {
    /// `out` extended with the items of the list `state.method()` returns.
    fn extend_from_list<'py, T>(
        &self,
        py: Python<'py>,
        method: &Bound<'py, PyString>,
        out: &mut Vec<T>,
    ) where
        T: for<'a> FromPyObject<'a, 'py>,
    {
        // As `broken`, naming the method only when it failed.
        let failed = |e: PyErr| -> ! { panic!("OpenSpiel's `{method}` failed: {e}") };
        let list = self.state.bind(py).call_method0(method);
        let list = list
            .and_then(|l| Ok(l.cast_into::<PyList>()?))
            .unwrap_or_else(|e| failed(e));
        out.extend(
            list.iter()
                .map(|item| item.extract::<T>().unwrap_or_else(|e| failed(e.into()))),
        );
    }
}

impl ExternalState for PyState {
    fn clone_box(&self) -> Box<dyn ExternalState> {
        Python::attach(|py| {
            let state = broken("clone", self.state.call_method0(py, intern!(py, "clone")));
            Box::new(PyState {
                state,
                player: self.player,
                max_outcomes: self.max_outcomes,
                game_name: self.game_name.clone(),
                rolled_out: self.rolled_out,
            })
        })
    }

    fn current_player(&self) -> ExternalPlayer {
        self.player
    }

    fn legal_actions(&self, out: &mut Vec<i64>) {
        Python::attach(|py| self.extend_from_list(py, intern!(py, "legal_actions"), out));
    }

    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        Python::attach(|py| {
            let state = self.state.bind(py);
            state
                .call_method1(intern!(py, "apply_action"), (action,))
                .map_err(|e| e.value(py).to_string())?;
            let id = broken(
                "current_player",
                state.call_method0(intern!(py, "current_player")),
            );
            self.player = player_of(broken("current_player", id.extract()));
            Ok(())
        })
    }

    fn chance_outcomes(&self, out: &mut Vec<(i64, f64)>) {
        Python::attach(|py| self.extend_from_list(py, intern!(py, "chance_outcomes"), out));
    }

    fn returns(&self) -> [f64; 2] {
        if let Some(returns) = self.rolled_out {
            return returns;
        }
        Python::attach(|py| {
            let returns = self.state.call_method0(py, intern!(py, "returns"));
            let returns: Vec<f64> = broken("returns", returns.and_then(|r| r.extract(py)));
            [
                returns.first().copied().unwrap_or(0.0),
                returns.get(1).copied().unwrap_or(0.0),
            ]
        })
    }

    fn move_number(&self) -> usize {
        Python::attach(|py| {
            let n = self.state.call_method0(py, intern!(py, "move_number"));
            broken("move_number", n.and_then(|n| n.extract(py)))
        })
    }

    fn text(&self) -> String {
        Python::attach(|py| broken("str", self.state.bind(py).str()).to_string())
    }

    fn max_chance_outcomes(&self) -> usize {
        self.max_outcomes
    }

    fn game_name(&self) -> String {
        self.game_name.to_string()
    }

    fn plays_out_randomly(&self) -> bool {
        true
    }

    /// `pyspiel.evaluate_bots(state, [uniform random bot 0, bot 1], seed)`: the whole rollout
    /// in C++, on this state, each bot and the chance events seeded by 31 bits of `seed`; the
    /// final returns are kept, so reading them calls nothing. Every call is to a function or
    /// method of `pyspiel` itself: a helper written in Python measured three times slower in
    /// leagues (a worker thread's every call into Python runs in a fresh thread state, and a
    /// Python function's frame costs more there than the calls it saves).
    fn play_out_randomly(&mut self, seed: u64) {
        static EVALUATE_BOTS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        static RANDOM_BOT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        Python::attach(|py| {
            let function = |cell: &'static PyOnceLock<Py<PyAny>>, name: &str| {
                cell.get_or_try_init(py, || {
                    py.import("pyspiel")?.getattr(name).map(Bound::unbind)
                })
                .map(|f| f.bind(py).clone())
            };
            let seeds = [seed, seed >> 31, seed.rotate_left(19)].map(|s| (s & 0x7FFF_FFFF) as i64);
            let result = (|| -> PyResult<[f64; 2]> {
                let random_bot = function(&RANDOM_BOT, "make_uniform_random_bot")?;
                let bots = (
                    random_bot.call1((0, seeds[0]))?,
                    random_bot.call1((1, seeds[1]))?,
                );
                let bots = PyList::new(py, [bots.0, bots.1])?;
                let returns: Vec<f64> = function(&EVALUATE_BOTS, "evaluate_bots")?
                    .call1((self.state.bind(py), bots, seeds[2]))?
                    .extract()?;
                // `evaluate_bots` plays until the state is terminal.
                self.player = ExternalPlayer::Terminal;
                Ok([
                    returns.first().copied().unwrap_or(0.0),
                    returns.get(1).copied().unwrap_or(0.0),
                ])
            })();
            self.rolled_out = Some(broken("evaluate_bots", result));
        })
    }
}

/// A loaded `pyspiel.Game`, its returns' bound and its most chance outcomes at a node.
type LoadedPyGame = (Py<PyAny>, f64, usize);

/// Loads OpenSpiel's games through `pyspiel`, once per spec.
pub struct PySpielProvider {
    /// Loaded games by OpenSpiel's text of the spec.
    games: Mutex<HashMap<String, LoadedPyGame>>,
    version: OnceLock<String>,
}

/// `pyspiel`, or an error saying how to install it.
fn pyspiel(py: Python<'_>) -> Result<Bound<'_, PyModule>, String> {
    py.import("pyspiel").map_err(|e| {
        format!(
            "OpenSpiel is not installed in this Python ({e}): `pip install open_spiel` \
             (a wheel for CPython 3.11 on Linux x86-64 and macOS), then run again"
        )
    })
}

/// A `pyspiel.SpielError`'s message without OpenSpiel's list of every game after an unknown
/// name.
fn spiel_message(py: Python<'_>, e: &PyErr) -> String {
    let text = e.value(py).to_string();
    match text.split_once(". Available games are:") {
        Some((first, _)) => format!("{first} (`python -c \"import pyspiel; print(pyspiel.registered_names())\"` lists them)"),
        None => text,
    }
}

/// Why OpenSpiel's game `game` is not one evomcts's searches play, if it is not: they play
/// two players, alternating (sequential), seeing everything (perfect information), winning
/// what the other loses (zero- or constant-sum), with chance given as explicit outcomes.
fn refusal(
    py: Python<'_>,
    spec: &OpenSpielSpec,
    game: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    let kind = game.call_method0(intern!(py, "get_type"))?;
    let name_of = |attr: &str| -> PyResult<String> {
        kind.getattr(attr)?.getattr("name")?.extract::<String>()
    };
    let players: i64 = game.call_method0("num_players")?.extract()?;
    let (dynamics, information, utility, chance) = (
        name_of("dynamics")?,
        name_of("information")?,
        name_of("utility")?,
        name_of("chance_mode")?,
    );
    let mut wrong = Vec::new();
    if players != 2 {
        wrong.push(format!("{players} players (needs 2)"));
    }
    if dynamics != "SEQUENTIAL" {
        wrong.push(format!("dynamics {dynamics} (needs SEQUENTIAL)"));
    }
    if information != "PERFECT_INFORMATION" {
        wrong.push(format!(
            "information {information} (needs PERFECT_INFORMATION)"
        ));
    }
    if !matches!(utility.as_str(), "ZERO_SUM" | "CONSTANT_SUM") {
        wrong.push(format!(
            "utility {utility} (needs ZERO_SUM or CONSTANT_SUM)"
        ));
    }
    if !matches!(chance.as_str(), "DETERMINISTIC" | "EXPLICIT_STOCHASTIC") {
        wrong.push(format!(
            "chance mode {chance} (needs DETERMINISTIC or EXPLICIT_STOCHASTIC: outcomes with \
             their probabilities)"
        ));
    }
    Ok((!wrong.is_empty()).then(|| {
        format!(
            "OpenSpiel's `{spec}` is not a game evomcts's searches play: {}; they play \
             two-player, zero-sum, perfect-information, sequential games",
            wrong.join(", ")
        )
    }))
}

impl PySpielProvider {
    fn load_game(&self, py: Python<'_>, spec: &OpenSpielSpec) -> Result<LoadedPyGame, String> {
        let key = spec.to_string();
        if let Some((game, bound, outcomes)) = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok((game.clone_ref(py), *bound, *outcomes));
        }
        let pyspiel = pyspiel(py)?;
        let params = PyDict::new(py);
        for (name, value) in &spec.params {
            let set = match value {
                OpenSpielParam::Bool(b) => params.set_item(name, b),
                OpenSpielParam::Int(i) => params.set_item(name, i),
                OpenSpielParam::Float(x) => params.set_item(name, x),
                OpenSpielParam::Text(s) => params.set_item(name, s),
            };
            set.map_err(|e| e.to_string())?;
        }
        let game = pyspiel
            .call_method1("load_game", (spec.name.as_str(), params))
            .map_err(|e| format!("OpenSpiel's `{spec}`: {}", spiel_message(py, &e)))?;
        let checked = (|| -> PyResult<Result<(f64, usize), String>> {
            if let Some(why) = refusal(py, spec, &game)? {
                return Ok(Err(why));
            }
            let min: f64 = game.call_method0("min_utility")?.extract()?;
            let max: f64 = game.call_method0("max_utility")?.extract()?;
            let outcomes: i64 = game.call_method0("max_chance_outcomes")?.extract()?;
            Ok(Ok((min.abs().max(max.abs()), outcomes.max(0) as usize)))
        })()
        .map_err(|e| format!("OpenSpiel's `{spec}`: {e}"))?;
        let (bound, outcomes) = checked?;
        let game: Py<PyAny> = game.unbind();
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, (game.clone_ref(py), bound, outcomes));
        Ok((game, bound, outcomes))
    }
}

thread_local! {
    /// The Python thread state a run's worker keeps between its calls into Python
    /// ([`OpenSpielProvider::worker_started`]), with the state `PyGILState_Ensure` returned.
    static KEPT_THREAD_STATE: std::cell::Cell<Option<(pyo3::ffi::PyGILState_STATE, *mut pyo3::ffi::PyThreadState)>> =
        const { std::cell::Cell::new(None) };
}

impl OpenSpielProvider for PySpielProvider {
    /// Gives the worker a Python thread state that outlives each call: without one, every
    /// `Python::attach` on a thread Python did not start creates and destroys a thread state.
    /// Measured with `python/benches/openspiel_speed.py`: 13.6 ms per decision without, 10.9
    /// ms with, at connect_four's 1,000 simulations (docs/openspiel.md, "Speed").
    fn worker_started(&self) {
        if KEPT_THREAD_STATE.get().is_some() {
            return;
        }
        // SAFETY: Python is initialised (this runs inside a call from Python) and this thread
        // holds neither the GIL nor a thread state (rayon's worker, outside any `attach`).
        // `PyGILState_Ensure` makes this thread's state and takes the GIL; `PyEval_SaveThread`
        // releases the GIL and keeps the state, which later `PyGILState_Ensure` calls (every
        // `Python::attach`) find and reuse. `worker_stopped` undoes both on the same thread.
        let kept = unsafe {
            let gil = pyo3::ffi::PyGILState_Ensure();
            (gil, pyo3::ffi::PyEval_SaveThread())
        };
        KEPT_THREAD_STATE.set(Some(kept));
    }

    fn worker_stopped(&self) {
        if let Some((gil, state)) = KEPT_THREAD_STATE.take() {
            // SAFETY: `state` is this thread's state, saved by `worker_started` on this thread
            // and not restored since (every `attach` in between restored and saved it again);
            // restoring it retakes the GIL, and releasing with the state `Ensure` returned
            // destroys the thread state and releases the GIL.
            unsafe {
                pyo3::ffi::PyEval_RestoreThread(state);
                pyo3::ffi::PyGILState_Release(gil);
            }
        }
    }

    fn load(&self, spec: &OpenSpielSpec) -> Result<LoadedGame, String> {
        Python::attach(|py| {
            let (game, returns_bound, outcomes) = self.load_game(py, spec)?;
            let start = game
                .call_method0(py, "new_initial_state")
                .and_then(|s| PyState::new(py, s, outcomes, &spec.to_string()))
                .map_err(|e| format!("OpenSpiel's `{spec}`: {e}"))?;
            Ok(LoadedGame {
                start: Box::new(start),
                returns_bound,
            })
        })
    }

    fn version(&self) -> String {
        self.version
            .get_or_init(|| {
                Python::attach(|py| {
                    pyspiel(py)
                        .and_then(|m| {
                            let v = m.getattr("__version__").map_err(|e| e.to_string())?;
                            v.extract::<String>().map_err(|e| e.to_string())
                        })
                        .unwrap_or_else(|_| "unknown".into())
                })
            })
            .clone()
    }
}

/// Installs the provider: from now on this process plays OpenSpiel specs.
pub fn install() {
    install_provider(Box::new(PySpielProvider {
        games: Mutex::new(HashMap::new()),
        version: OnceLock::new(),
    }));
}

/// A controller for OpenSpiel states: ``OpenSpielController("Mcts(sims: 400, c_e: 0.35)",
/// seed)`` chooses an action for a ``pyspiel.State`` at a decision, searching a copy of it, as
/// a seat of a league does; its random generator runs on from one decision to the next. The GIL
/// is released while it searches (the state's calls take it back).
#[pyclass(module = "evomcts._evomcts", name = "OpenSpielController")]
pub struct PyOpenSpielController {
    agent: Mutex<Box<dyn Agent<ExternalGame>>>,
    spec: String,
}

#[pymethods]
impl PyOpenSpielController {
    #[new]
    #[pyo3(signature = (spec, seed=0))]
    fn new(spec: &str, seed: u64) -> PyResult<Self> {
        let parsed: ControllerSpec =
            evomcts_runs::bounds::parse_controller(spec, "<controller>", std::path::Path::new(""))
                .map_err(raise)?;
        let agent = parsed.build::<ExternalGame>(seed).map_err(raise)?;
        Ok(PyOpenSpielController {
            agent: Mutex::new(agent),
            spec: spec.to_string(),
        })
    }

    /// The action for ``state`` (a ``pyspiel.State`` at a decision of player 0 or 1).
    fn step(&mut self, py: Python<'_>, state: Bound<'_, PyAny>) -> PyResult<i64> {
        let game = state.call_method0("get_game")?;
        let name: String = game.call_method0("__str__")?.extract()?;
        let min: f64 = game.call_method0("min_utility")?.extract()?;
        let max: f64 = game.call_method0("max_utility")?.extract()?;
        let outcomes: i64 = game.call_method0("max_chance_outcomes")?.extract()?;
        let copy = state.call_method0("clone")?.unbind();
        let wrapped = PyState::new(py, copy, outcomes.max(0) as usize, &name)?;
        let external =
            ExternalGame::new(Box::new(wrapped), min.abs().max(max.abs())).map_err(raise)?;
        if !evomcts_games::Game::at_decision(&external) {
            return Err(raise(anyhow::anyhow!(
                "{name}: the state is not at a decision"
            )));
        }
        let agent = self.agent.get_mut().map_err(|_| {
            raise(anyhow::anyhow!(
                "the controller failed in an earlier decision"
            ))
        })?;
        let mv = py.detach(move || agent.choose_move(&external));
        Ok(mv.0)
    }

    fn __repr__(&self) -> String {
        format!("OpenSpielController({:?})", self.spec)
    }
}

/// Runs the command line (``evomcts ARGS``) in this process, with OpenSpiel's games playable;
/// ``argv`` starts with the program's name. Returns the exit status. The GIL is released while
/// it runs.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> i32 {
    let args: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    py.detach(move || evomcts::cli::command::main_embedded(args))
}

/// Why OpenSpiel's game `name` (default parameters) cannot be played here, or None when it
/// can: the check every spec naming it passes first.
#[pyfunction]
fn open_spiel_refusal(name: &str) -> Option<String> {
    let spec = OpenSpielSpec {
        name: name.to_string(),
        params: Default::default(),
    };
    OpenSpielGame::new(spec).start().err()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    install();
    m.add_function(wrap_pyfunction!(open_spiel_refusal, m)?)?;
    m.add_class::<PyOpenSpielController>()?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    Ok(())
}
