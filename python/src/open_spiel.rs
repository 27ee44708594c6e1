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
//!
//! Errors: a game is loaded once per spec, and only after its checks (its kind, its number of
//! actions and length, `check_sizes`) and one random game played as a probe, with OpenSpiel's
//! own stderr lines silenced; every reason is shown escaped and cut, and not at all for a spec
//! naming a file. A call that still fails during play unwinds as a [`Stop`] (see `stop.rs`),
//! which the package's boundaries raise as an error naming the game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use evomcts_arena::open_spiel::{
    check_sizes, install_provider, shown, LoadedGame, OpenSpielGame, OpenSpielParam,
    OpenSpielProvider, OpenSpielSpec,
};
use evomcts_games::external::{ExternalGame, ExternalPlayer, ExternalState};
use evomcts_search::{Agent, ControllerSpec};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};

use crate::stop::Stop;
use crate::{interruptible, raise};
use pyo3::exceptions::PyTypeError;

/// A `pyspiel.State` behind the game interface.
#[derive(Debug)]
pub struct PyState {
    state: Py<PyAny>,
    /// Who is to move: the state changes only through `apply_action`, which asks again.
    player: ExternalPlayer,
    max_outcomes: usize,
    game_name: Arc<str>,
    /// OpenSpiel's reasons are not shown (the spec names a file they may quote).
    hide_reasons: bool,
    /// Once set, the next call stops the search ([`Stop::Cancelled`]); shared by the clones.
    cancel: Option<Arc<AtomicBool>>,
    /// The returns of a rollout played in one call (the state is then over).
    rolled_out: Option<[f64; 2]>,
    /// The sum of every result's returns, for a zero- or constant-sum game
    /// ([`ExternalState::constant_sum`]); shared by the clones.
    constant_sum: Option<f64>,
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

/// OpenSpiel's reason for an error, for a message: escaped and cut, or not shown at all when
/// `hide` (a spec naming a file: the reason may quote it).
fn reason(py: Python<'_>, e: &PyErr, hide: bool) -> String {
    if hide {
        "(OpenSpiel's reason is not shown: it may quote the file the spec names)".into()
    } else {
        shown(&e.value(py).to_string())
    }
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
            hide_reasons: false,
            cancel: None,
            rolled_out: None,
            constant_sum: None,
        })
    }

    /// The value of a call into OpenSpiel, or the search stops with an error naming the game,
    /// the call and OpenSpiel's reason ([`Stop::Failed`]).
    fn broken<T>(&self, what: &str, result: PyResult<T>) -> T {
        result.unwrap_or_else(|e| self.fail(what, e))
    }

    /// Stops the search: the call `what` into OpenSpiel failed with `e`.
    fn fail(&self, what: &str, e: PyErr) -> ! {
        let why = Python::attach(|py| reason(py, &e, self.hide_reasons));
        Stop::Failed(format!(
            "OpenSpiel's `{}` failed during play (`{what}`): {why}",
            shown(&self.game_name)
        ))
        .raise()
    }

    /// Stops the search if it was told to ([`Stop::Cancelled`]).
    fn check_cancel(&self) {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            Stop::Cancelled.raise()
        }
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
        let failed = |e: PyErr| -> ! { self.fail(&method.to_string(), e) };
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
        self.check_cancel();
        Python::attach(|py| {
            let state = self.broken("clone", self.state.call_method0(py, intern!(py, "clone")));
            Box::new(PyState {
                state,
                player: self.player,
                max_outcomes: self.max_outcomes,
                game_name: self.game_name.clone(),
                hide_reasons: self.hide_reasons,
                cancel: self.cancel.clone(),
                rolled_out: self.rolled_out,
                constant_sum: self.constant_sum,
            })
        })
    }

    fn current_player(&self) -> ExternalPlayer {
        self.player
    }

    fn legal_actions(&self, out: &mut Vec<i64>) {
        Python::attach(|py| self.extend_from_list(py, intern!(py, "legal_actions"), out));
    }

    /// The wrapper applies only legal actions and listed outcomes, so OpenSpiel refusing one
    /// is a failure of the game: the search stops ([`Stop::Failed`]).
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        self.check_cancel();
        Python::attach(|py| {
            let state = self.state.bind(py);
            let applied = state.call_method1(intern!(py, "apply_action"), (action,));
            self.broken("apply_action", applied);
            let id = self.broken(
                "current_player",
                state.call_method0(intern!(py, "current_player")),
            );
            self.player = player_of(self.broken("current_player", id.extract()));
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
            let returns: Vec<f64> = self.broken("returns", returns.and_then(|r| r.extract(py)));
            [
                returns.first().copied().unwrap_or(0.0),
                returns.get(1).copied().unwrap_or(0.0),
            ]
        })
    }

    fn move_number(&self) -> usize {
        Python::attach(|py| {
            let n = self.state.call_method0(py, intern!(py, "move_number"));
            self.broken("move_number", n.and_then(|n| n.extract(py)))
        })
    }

    fn text(&self) -> String {
        Python::attach(|py| self.broken("str", self.state.bind(py).str()).to_string())
    }

    fn max_chance_outcomes(&self) -> usize {
        self.max_outcomes
    }

    fn game_name(&self) -> String {
        self.game_name.to_string()
    }

    fn constant_sum(&self) -> Option<f64> {
        self.constant_sum
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
        self.check_cancel();
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
            self.rolled_out = Some(self.broken("evaluate_bots", result));
        })
    }
}

/// A loaded `pyspiel.Game`, its returns' bound, its most chance outcomes at a node and the sum
/// its results' returns always have (`refusal` admits only zero- and constant-sum games).
type LoadedPyGame = (Py<PyAny>, f64, usize, Option<f64>);

/// Loads OpenSpiel's games through `pyspiel`, once per spec.
pub struct PySpielProvider {
    /// Loaded games by OpenSpiel's text of the spec.
    games: Mutex<HashMap<String, LoadedPyGame>>,
    version: OnceLock<String>,
    available: OnceLock<bool>,
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
/// name, escaped and cut.
fn spiel_message(py: Python<'_>, e: &PyErr) -> String {
    let text = e.value(py).to_string();
    match text.split_once(". Available games are:") {
        Some((first, _)) => format!(
            "{} (`python -c \"import pyspiel; print(pyspiel.registered_names())\"` lists them; \
             a game written in Python is registered when its module is imported: name the \
             module in the spec, `OpenSpiel(name: ..., import: [\"module\"])`)",
            shown(first)
        ),
        None => shown(&text),
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
            "OpenSpiel's `{}` is not a game evomcts's searches play: {}; they play \
             two-player, zero-sum, perfect-information, sequential games",
            spec.shown(),
            wrong.join(", ")
        )
    }))
}

impl PySpielProvider {
    fn load_game(&self, py: Python<'_>, spec: &OpenSpielSpec) -> Result<LoadedPyGame, String> {
        let key = spec.to_string();
        if let Some((game, bound, outcomes, sum)) = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok((game.clone_ref(py), *bound, *outcomes, *sum));
        }
        let pyspiel = pyspiel(py)?;
        import_modules(py, spec)?;
        let loaded = with_stderr_silenced(py, || checked_game(py, &pyspiel, spec))?;
        let (game, bound, outcomes, sum) = loaded;
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, (game.clone_ref(py), bound, outcomes, sum));
        Ok((game, bound, outcomes, sum))
    }
}

/// The modules of `spec`'s `import`, imported in order (a game written in Python registers
/// itself with `pyspiel` when its module is imported); Python's reason when one fails.
fn import_modules(py: Python<'_>, spec: &OpenSpielSpec) -> Result<(), String> {
    for module in &spec.modules {
        py.import(module.as_str()).map_err(|e| {
            format!(
                "OpenSpiel's `{}`: the spec's `import` names `{}`, which does not import here: \
                 {} (a module of your own must be on Python's path: run from its folder, or \
                 set PYTHONPATH)",
                spec.shown(),
                shown(module),
                shown(&e.to_string())
            )
        })?;
    }
    Ok(())
}

/// `spec`'s game loaded, checked (its kind, `refusal`; its actions and length, `check_sizes`)
/// and probed: one random game played to its end, so a game whose parameters OpenSpiel takes
/// but cannot play (`pig(diceoutcomes=0)`) is refused here, with OpenSpiel's reason, rather
/// than failing a run.
fn checked_game(
    py: Python<'_>,
    pyspiel: &Bound<'_, PyModule>,
    spec: &OpenSpielSpec,
) -> Result<LoadedPyGame, String> {
    let hide = spec.names_a_file();
    let failed = |what: &str, e: PyErr| {
        let why = if hide {
            reason(py, &e, true)
        } else {
            spiel_message(py, &e)
        };
        format!("OpenSpiel's `{}`{what}: {why}", spec.shown())
    };
    let params = PyDict::new(py);
    for (name, value) in &spec.params {
        let set = match value {
            OpenSpielParam::Bool(b) => params.set_item(name, b),
            OpenSpielParam::Int(i) => params.set_item(name, i),
            OpenSpielParam::Float(x) => params.set_item(name, x),
            OpenSpielParam::Text(s) => params.set_item(name, s),
        };
        set.map_err(|e| failed("", e))?;
    }
    let game = pyspiel
        .call_method1("load_game", (spec.name.as_str(), params))
        .map_err(|e| failed("", e))?;
    let int = |method: &str| -> PyResult<i64> { game.call_method0(method)?.extract() };
    let sizes = (|| Ok((int("num_distinct_actions")?, int("max_game_length")?)))();
    let (actions, length) = sizes.map_err(|e| failed("", e))?;
    if let Some(why) = refusal(py, spec, &game).map_err(|e| failed("", e))? {
        return Err(why);
    }
    check_sizes(&spec.shown(), actions, length)?;
    let checked = (|| -> PyResult<(f64, usize, f64)> {
        let min: f64 = game.call_method0("min_utility")?.extract()?;
        let max: f64 = game.call_method0("max_utility")?.extract()?;
        let outcomes: i64 = game.call_method0("max_chance_outcomes")?.extract()?;
        // `refusal` admitted only zero- and constant-sum games, for which OpenSpiel states
        // the sum (`Game::UtilitySum`).
        let sum: f64 = game.call_method0("utility_sum")?.extract()?;
        Ok((min.abs().max(max.abs()), outcomes.max(0) as usize, sum))
    })();
    let (bound, outcomes, sum) = checked.map_err(|e| failed("", e))?;
    let probe = (|| -> PyResult<()> {
        let bot = pyspiel.getattr("make_uniform_random_bot")?;
        let bots = PyList::new(py, [bot.call1((0, 1))?, bot.call1((1, 2))?])?;
        let start = game.call_method0("new_initial_state")?;
        pyspiel.call_method1("evaluate_bots", (start, bots, 3))?;
        Ok(())
    })();
    probe.map_err(|e| failed(" fails in a random game played to check it", e))?;
    Ok((game.unbind(), bound, outcomes, Some(sum)))
}

/// `f`, with file descriptor 2 sent to the null device while it runs: OpenSpiel prints each
/// error to stderr (`OpenSpiel exception: …`) before it raises it, and its reasons reach the
/// user only through this package's messages, escaped and cut. Done with Python's `os`, so
/// no `unsafe`; if a step fails, `f` runs with stderr as it was.
fn with_stderr_silenced<T>(py: Python<'_>, f: impl FnOnce() -> T) -> T {
    let silenced = (|| -> PyResult<(Bound<'_, PyModule>, i64)> {
        let os = py.import("os")?;
        let saved: i64 = os.call_method1("dup", (2,))?.extract()?;
        let null: i64 = os
            .call_method1("open", (os.getattr("devnull")?, os.getattr("O_WRONLY")?))?
            .extract()?;
        let redirected = os.call_method1("dup2", (null, 2));
        os.call_method1("close", (null,))?;
        if let Err(e) = redirected {
            os.call_method1("close", (saved,))?;
            return Err(e);
        }
        Ok((os, saved))
    })();
    let result = f();
    if let Ok((os, saved)) = silenced {
        let _ = os.call_method1("dup2", (saved, 2));
        let _ = os.call_method1("close", (saved,));
    }
    result
}

thread_local! {
    /// The Python thread state a worker keeps between its calls into Python
    /// ([`keep_thread_state`]), with the state `PyGILState_Ensure` returned.
    static KEPT_THREAD_STATE: std::cell::Cell<Option<(pyo3::ffi::PyGILState_STATE, *mut pyo3::ffi::PyThreadState)>> =
        const { std::cell::Cell::new(None) };
}

/// Gives this thread a Python thread state that outlives each call: without one, every
/// `Python::attach` on a thread Python did not start creates and destroys a thread state.
/// Measured with `python/benches/openspiel_speed.py`: 13.6 ms per decision without, 10.9 ms
/// with, at connect_four's 1,000 simulations (docs/openspiel.md, "Speed"). Must be called
/// outside any `attach`, on a thread Python did not start; [`release_thread_state`] undoes it.
fn keep_thread_state() {
    if KEPT_THREAD_STATE.get().is_some() {
        return;
    }
    // SAFETY: Python is initialised (this runs inside a call from Python) and this thread
    // holds neither the GIL nor a thread state (a worker, outside any `attach`).
    // `PyGILState_Ensure` makes this thread's state and takes the GIL; `PyEval_SaveThread`
    // releases the GIL and keeps the state, which later `PyGILState_Ensure` calls (every
    // `Python::attach`) find and reuse. `release_thread_state` undoes both on the same thread.
    let kept = unsafe {
        let gil = pyo3::ffi::PyGILState_Ensure();
        (gil, pyo3::ffi::PyEval_SaveThread())
    };
    KEPT_THREAD_STATE.set(Some(kept));
}

/// Undoes [`keep_thread_state`] on this thread, if it was done.
fn release_thread_state() {
    if let Some((gil, state)) = KEPT_THREAD_STATE.take() {
        // SAFETY: `state` is this thread's state, saved by `keep_thread_state` on this thread
        // and not restored since (every `attach` in between restored and saved it again);
        // restoring it retakes the GIL, and releasing with the state `Ensure` returned
        // destroys the thread state and releases the GIL.
        unsafe {
            pyo3::ffi::PyEval_RestoreThread(state);
            pyo3::ffi::PyGILState_Release(gil);
        }
    }
}

/// While it lives, this thread keeps its Python thread state ([`keep_thread_state`]); dropped,
/// even by a search's unwinding ([`Stop`]), the state is released.
struct KeptThreadState;

impl KeptThreadState {
    fn new() -> Self {
        keep_thread_state();
        KeptThreadState
    }
}

impl Drop for KeptThreadState {
    fn drop(&mut self) {
        release_thread_state();
    }
}

impl OpenSpielProvider for PySpielProvider {
    fn worker_started(&self) {
        keep_thread_state();
    }

    fn worker_stopped(&self) {
        release_thread_state();
    }

    fn load(&self, spec: &OpenSpielSpec) -> Result<LoadedGame, String> {
        Python::attach(|py| {
            let (game, returns_bound, outcomes, constant_sum) = self.load_game(py, spec)?;
            let hide_reasons = spec.names_a_file();
            let mut start = game
                .call_method0(py, "new_initial_state")
                .and_then(|s| PyState::new(py, s, outcomes, &spec.to_string()))
                .map_err(|e| {
                    let why = reason(py, &e, hide_reasons);
                    format!("OpenSpiel's `{}`: {why}", spec.shown())
                })?;
            start.hide_reasons = hide_reasons;
            start.constant_sum = constant_sum;
            Ok(LoadedGame {
                start: Box::new(start),
                returns_bound,
            })
        })
    }

    /// Whether `pyspiel` imports (asked once): without it, OpenSpiel's specs are read unchecked
    /// (tables, reports, `load_run`), as by the binary.
    fn available(&self) -> bool {
        *self
            .available
            .get_or_init(|| Python::attach(|py| pyspiel(py).is_ok()))
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
        available: OnceLock::new(),
    }));
}

/// A controller for OpenSpiel states: ``OpenSpielController("Mcts(sims: 400, c_e: 0.35)",
/// seed)`` chooses an action for a ``pyspiel.State`` at a decision, searching a copy of it, as
/// a seat of a league does; its random generator runs on from one decision to the next. The GIL
/// is released while it searches (the state's calls take it back). An MCTS spec that names no
/// reward or final move plays with `WinLoss` and `MostVisits` (`ExternalGame::OBJECTIVE`).
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
        let parsed: ControllerSpec = evomcts_records::bounds::parse_controller(
            spec,
            "<controller>",
            std::path::Path::new(""),
        )
        .map_err(raise)?;
        let agent = parsed.build::<ExternalGame>(seed).map_err(raise)?;
        Ok(PyOpenSpielController {
            agent: Mutex::new(agent),
            spec: spec.to_string(),
        })
    }

    /// The action for ``state`` (a ``pyspiel.State`` at a decision of player 0 or 1), whose
    /// game passes the checks a spec's game passes (its actions and length). Ctrl-C stops the
    /// search at its next call into OpenSpiel and raises ``KeyboardInterrupt``; a failure of
    /// OpenSpiel raises ``EvomctsError`` naming the game. One controller serves one thread.
    fn step(slf: &Bound<'_, Self>, state: &Bound<'_, PyAny>) -> PyResult<i64> {
        let py = slf.py();
        let pyspiel = pyspiel(py).map_err(|m| raise(anyhow::anyhow!(m)))?;
        if !state.is_instance(&pyspiel.getattr("State")?)? {
            return Err(PyTypeError::new_err(format!(
                "OpenSpielController.step: `state` must be a pyspiel.State, got {}",
                state.get_type().name()?
            )));
        }
        let game = state.call_method0("get_game")?;
        let name = shown(&game.str()?.to_string());
        let int = |method: &str| -> PyResult<i64> { game.call_method0(method)?.extract() };
        check_sizes(&name, int("num_distinct_actions")?, int("max_game_length")?)
            .map_err(|m| raise(anyhow::anyhow!(m)))?;
        let min: f64 = game.call_method0("min_utility")?.extract()?;
        let max: f64 = game.call_method0("max_utility")?.extract()?;
        let outcomes = int("max_chance_outcomes")?;
        let copy = state.call_method0("clone")?.unbind();
        let cancel = Arc::new(AtomicBool::new(false));
        let mut wrapped = PyState::new(py, copy, outcomes.max(0) as usize, &name)?;
        wrapped.cancel = Some(cancel.clone());
        let external =
            ExternalGame::new(Box::new(wrapped), min.abs().max(max.abs())).map_err(raise)?;
        if !evomcts_games::Game::at_decision(&external) {
            return Err(raise(anyhow::anyhow!(
                "{name}: the state is not at a decision"
            )));
        }
        let mut this = slf
            .try_borrow_mut()
            .map_err(|_| crate::in_use("OpenSpielController"))?;
        let agent = this.agent.get_mut().map_err(|_| {
            raise(anyhow::anyhow!(
                "the controller failed in an earlier decision"
            ))
        })?;
        let mv = interruptible(py, &cancel, move || {
            let _kept = KeptThreadState::new();
            agent.choose_move(&external)
        })?;
        Ok(mv.0)
    }

    fn __repr__(&self) -> String {
        format!("OpenSpielController({:?})", self.spec)
    }
}

/// Runs the command line (``evomcts ARGS``) in this process, with OpenSpiel's games playable;
/// ``argv`` starts with the program's name. Returns the exit status. The GIL is released while
/// it runs.
/// A run stopped by a failure of OpenSpiel ([`Stop::Failed`]) ends as any error does: its
/// message on stderr after `error: `, exit status 2.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> i32 {
    let args: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    // The interpreter running this, which commands that start the command line again in
    // local processes start as `python -m evomcts` (a venv's own, not its target).
    let python: std::path::PathBuf = py
        .import("sys")
        .and_then(|sys| sys.getattr("executable"))
        .and_then(|exe| exe.extract::<String>())
        .unwrap_or_else(|_| "python3".to_string())
        .into();
    crate::stop::forget_pending();
    py.detach(move || {
        let run = std::panic::catch_unwind(|| evomcts::cli::command::main_embedded(python, args));
        run.unwrap_or_else(|payload| match crate::stop::stop_of(payload) {
            Ok(Stop::Failed(message)) => {
                evomcts_records::note!("error: {message}");
                2
            }
            // Nothing cancels the command line's searches: it stops between games.
            Ok(Stop::Cancelled) => 2,
            Err(other) => std::panic::resume_unwind(other),
        })
    })
}

/// Why OpenSpiel's game `name` (default parameters) cannot be played here, or None when it
/// can: the check every spec naming it passes first.
#[pyfunction]
fn open_spiel_refusal(name: &str) -> Option<String> {
    let spec = OpenSpielSpec {
        name: name.to_string(),
        params: Default::default(),
        modules: Vec::new(),
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
