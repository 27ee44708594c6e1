//! OpenSpiel's games in the registry: a spec names one (`game: OpenSpiel(name: "connect_four",
//! params: {"rows": 6})`), and a provider that can load it (the Python package, over `pyspiel`)
//! is installed at start-up with [`install_provider`]. Without one, a spec naming an OpenSpiel
//! game is refused with a message saying where such specs run.
//!
//! Architecture invariant: this crate knows no Python. It knows OpenSpiel only as a name, its
//! parameters, a version string and the [`ExternalState`] a provider hands it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use evomcts_games::external::{ExternalGame, ExternalState};
use serde::{Deserialize, Serialize};

/// An OpenSpiel game as a spec names it: its short name and its parameters, as
/// `pyspiel.load_game(name, params)` takes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSpielSpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, OpenSpielParam>,
}

/// A game parameter, typed as OpenSpiel types it (a `bool`, `int`, `double` or `string`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OpenSpielParam {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl fmt::Display for OpenSpielParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenSpielParam::Bool(b) => write!(f, "{b}"),
            OpenSpielParam::Int(i) => write!(f, "{i}"),
            // `{:?}` keeps the point of a whole double (`1.0`), so the text reads as a double.
            OpenSpielParam::Float(x) => write!(f, "{x:?}"),
            OpenSpielParam::Text(s) => write!(f, "{s}"),
        }
    }
}

/// OpenSpiel's own way of writing a game with parameters: `pig(diceoutcomes=6,winscore=100)`,
/// or the bare name without any.
impl fmt::Display for OpenSpielSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            let params: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", params.join(","))?;
        }
        Ok(())
    }
}

/// An OpenSpiel game in a [`super::GameChoice`]: a copyable handle to its spec. Specs are
/// interned (a program reads a handful), so the choice stays `Copy`; two handles are equal
/// when their specs are.
#[derive(Clone, Copy)]
pub struct OpenSpielGame(&'static OpenSpielSpec);

impl OpenSpielGame {
    /// The handle of `spec`, the same for equal specs.
    pub fn new(spec: OpenSpielSpec) -> Self {
        static INTERNED: Mutex<Vec<&'static OpenSpielSpec>> = Mutex::new(Vec::new());
        let mut interned = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&known) = interned.iter().find(|&&known| *known == spec) {
            return OpenSpielGame(known);
        }
        let leaked: &'static OpenSpielSpec = Box::leak(Box::new(spec));
        interned.push(leaked);
        OpenSpielGame(leaked)
    }

    pub fn spec(&self) -> &'static OpenSpielSpec {
        self.0
    }

    /// The game's start state, from the installed provider; an error says why there is none.
    pub fn start(&self) -> Result<ExternalGame, String> {
        let provider = PROVIDER.get().ok_or_else(|| no_provider(self.0))?;
        let loaded = provider.load(self.0)?;
        ExternalGame::new(loaded.start, loaded.returns_bound).map_err(|e| e.to_string())
    }
}

impl PartialEq for OpenSpielGame {
    fn eq(&self, other: &Self) -> bool {
        // Parameters of different types that write alike (`1` and `"1"`) load the same game.
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for OpenSpielGame {}

impl fmt::Debug for OpenSpielGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for OpenSpielGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for OpenSpielGame {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for OpenSpielGame {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        OpenSpielSpec::deserialize(deserializer).map(OpenSpielGame::new)
    }
}

/// A loaded game's start state and what [`ExternalGame::new`] needs with it.
pub struct LoadedGame {
    pub start: Box<dyn ExternalState>,
    /// The largest |return| the game can give (OpenSpiel: its utilities' bound).
    pub returns_bound: f64,
}

/// What loads OpenSpiel games: installed once by a front end that can (the Python package).
pub trait OpenSpielProvider: Send + Sync {
    /// The start state of `spec`'s game, or why it cannot be played: an unknown game, a bad
    /// parameter, or a game of a kind evomcts's searches do not play (the message names the
    /// game's type and what is needed).
    fn load(&self, spec: &OpenSpielSpec) -> Result<LoadedGame, String>;
    /// The installed OpenSpiel's version, recorded with every game.
    fn version(&self) -> String;
    /// Called on each worker thread of a run's pool before it plays an OpenSpiel game, and
    /// [`OpenSpielProvider::worker_stopped`] on each after the run: a binding may keep
    /// per-thread state in between (Python: the thread's state, so each call into Python need
    /// not make one).
    fn worker_started(&self) {}
    fn worker_stopped(&self) {}
}

/// While it lives, every worker of `pool` has been told it plays OpenSpiel games
/// ([`OpenSpielProvider::worker_started`]); dropped, each is told it stopped. `None` for a
/// native game or without a provider.
pub struct WorkerHooks<'a> {
    pool: &'a rayon::ThreadPool,
    provider: &'static dyn OpenSpielProvider,
}

impl<'a> WorkerHooks<'a> {
    pub fn install(pool: &'a rayon::ThreadPool, game: &super::GameChoice) -> Option<Self> {
        let super::GameChoice::OpenSpiel(_) = game else {
            return None;
        };
        let provider: &'static dyn OpenSpielProvider = PROVIDER.get()?.as_ref();
        pool.broadcast(|_| provider.worker_started());
        Some(WorkerHooks { pool, provider })
    }
}

impl Drop for WorkerHooks<'_> {
    fn drop(&mut self) {
        let provider = self.provider;
        self.pool.broadcast(|_| provider.worker_stopped());
    }
}

static PROVIDER: OnceLock<Box<dyn OpenSpielProvider>> = OnceLock::new();

/// Makes OpenSpiel's games playable in this process; a second call is ignored (returns false).
pub fn install_provider(provider: Box<dyn OpenSpielProvider>) -> bool {
    PROVIDER.set(provider).is_ok()
}

/// Whether a provider is installed: OpenSpiel's games can be started in this process.
pub fn provider_installed() -> bool {
    PROVIDER.get().is_some()
}

/// The installed OpenSpiel's version, if a provider is installed.
pub fn installed_version() -> Option<String> {
    PROVIDER.get().map(|p| p.version())
}

fn no_provider(spec: &OpenSpielSpec) -> String {
    format!(
        "the OpenSpiel game `{spec}` is played from the Python package, which loads OpenSpiel: \
         `pip install ./python open_spiel`, then `python -m evomcts` with the same arguments \
         (see docs/openspiel.md)"
    )
}

/// A warning when a record was made with another OpenSpiel than the installed one (`None`
/// when they agree, or when either is unknown): `replay` and a league's `--resume` print it.
pub fn version_warning(recorded: Option<&str>) -> Option<String> {
    let (recorded, installed) = (recorded?, installed_version()?);
    (recorded != installed).then(|| {
        format!(
            "records made with OpenSpiel {recorded}, now read with OpenSpiel {installed}: a \
             change of rules between versions shows as games that do not reproduce"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> OpenSpielSpec {
        ron::from_str(text).unwrap()
    }

    #[test]
    fn a_spec_writes_as_openspiel_writes_a_game() {
        let s = spec(
            r#"(name: "pig", params: {"winscore": 100, "piglet": false, "x": 1.0, "s": "a"})"#,
        );
        assert_eq!(s.to_string(), "pig(piglet=false,s=a,winscore=100,x=1.0)");
        assert_eq!(
            spec(r#"(name: "connect_four")"#).to_string(),
            "connect_four"
        );
    }

    #[test]
    fn equal_specs_share_one_handle_and_compare_equal() {
        let a = OpenSpielGame::new(spec(r#"(name: "pig", params: {"winscore": 10})"#));
        let b = OpenSpielGame::new(spec(r#"(name: "pig", params: {"winscore": 10})"#));
        let c = OpenSpielGame::new(spec(r#"(name: "pig", params: {"winscore": 11})"#));
        assert!(std::ptr::eq(a.spec(), b.spec()));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_spec_round_trips_through_json_and_refuses_unknown_fields() {
        let a = OpenSpielGame::new(spec(r#"(name: "pig", params: {"winscore": 10})"#));
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"name":"pig","params":{"winscore":10}}"#);
        assert_eq!(serde_json::from_str::<OpenSpielGame>(&json).unwrap(), a);
        let err = ron::from_str::<OpenSpielSpec>(r#"(name: "pig", rows: 3)"#).unwrap_err();
        assert!(err.to_string().contains("rows"), "{err}");
    }
}
