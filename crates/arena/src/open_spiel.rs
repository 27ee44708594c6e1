//! OpenSpiel's games in the registry: a spec names one (`game: OpenSpiel(name: "connect_four",
//! params: {"rows": 6})`), and a provider that can load it (the Python package, over `pyspiel`)
//! is installed at start-up with [`install_provider`]. Without one, a spec naming an OpenSpiel
//! game is refused with a message saying where such specs run.
//!
//! Architecture invariant: this crate knows no Python. It knows OpenSpiel only as a name, its
//! parameters, a version string and the [`ExternalState`] a provider hands it.
//!
//! Guarantees, before OpenSpiel sees a spec: its name and parameter names are plain (letters,
//! digits, `_`, at most [`MAX_NAME_CHARS`]); each parameter is given once, as a bool, an int
//! in C++'s `int` range, a finite float or a string ([`OpenSpielSpec::check`]); a parameter
//! OpenSpiel opens as a file ([`FILE_PARAMS`]) names a regular file, opened without blocking
//! (`runfs::open_regular`), so a FIFO is refused at once. Specs are compared with their
//! parameters typed (`20` is not `"20"`). A provider refuses a game that may offer more moves
//! than a search holds or play longer than [`MAX_GAME_LENGTH`] ([`check_sizes`]). Every text
//! of a spec or of OpenSpiel reaches a message escaped and cut ([`shown`]).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use evomcts_games::external::{ExternalGame, ExternalState};
use evomcts_search::mcts::MAX_LEGAL_MOVES;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// The longest name of a game or a parameter (OpenSpiel's are under 40 characters).
pub const MAX_NAME_CHARS: usize = 100;

/// The most characters of a spec's text or of OpenSpiel's reason a message shows (escaped,
/// then cut with the length it had: see [`shown`]).
pub const SHOWN_CHARS: usize = 300;

/// The longest game a spec may name, in OpenSpiel's `max_game_length()` (actions and chance
/// outcomes). Every rollout may walk a whole game, so a game's length multiplies into each
/// decision's work as the simulations do: at [`evomcts_records::bounds::MAX_DECISION_PLAYOUTS`] playouts
/// of this length a decision walks 10^12 states. Chess (17,695) fits; Pig to a billion does not.
pub const MAX_GAME_LENGTH: usize = (evomcts_records::bounds::MAX_DECISION_PLAYOUTS / 100) as usize;

/// The parameters OpenSpiel opens as a file (`efg_game`, `nfg_game`): each must name a regular
/// file of at most [`evomcts_records::runfs::MAX_SPEC_FILE_BYTES`], and OpenSpiel's reasons for refusing
/// a spec that names one are not shown (they may quote the file).
pub const FILE_PARAMS: &[&str] = &["filename"];

/// Text from a spec, a record or OpenSpiel, fit for a message: escaped for the terminal and cut
/// at [`SHOWN_CHARS`].
pub fn shown(text: &str) -> String {
    evomcts_records::escape::abbreviated(text, SHOWN_CHARS)
}

/// An OpenSpiel game as a spec names it: its short name and its parameters, as
/// `pyspiel.load_game(name, params)` takes them. Read from a file, it has passed
/// [`OpenSpielSpec::check`] and each parameter was given once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, try_from = "ReadSpec")]
pub struct OpenSpielSpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, OpenSpielParam>,
    /// Python modules the provider imports before it loads the game, in order (the spec's
    /// `import` field): a game written in Python registers itself with `pyspiel` when its
    /// module is imported (OpenSpiel's `open_spiel.python.games`, or a user's own module).
    /// Named in the spec, they are imported wherever the spec is read: the driver and every
    /// worker process.
    #[serde(default, rename = "import", skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
}

/// A game parameter, typed as OpenSpiel types it (a `bool`, `int`, `double` or `string`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OpenSpielParam {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

/// The kinds a parameter may be, for messages.
const PARAM_KINDS: &str = "a bool, an int, a float or a string";

/// A parameter's value as a file gives it: any of [`PARAM_KINDS`], anything else (a list, a
/// map, a unit) refused with the kinds allowed.
impl<'de> Deserialize<'de> for OpenSpielParam {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Kinds;
        impl Visitor<'_> for Kinds {
            type Value = OpenSpielParam;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(PARAM_KINDS)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Self::Value, E> {
                // Out of `i64`'s range is out of C++'s `int` range too: `check` says so.
                Ok(OpenSpielParam::Int(i64::try_from(u).unwrap_or(i64::MAX)))
            }
            fn visit_i128<E: de::Error>(self, i: i128) -> Result<Self::Value, E> {
                let clamped = i.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
                Ok(OpenSpielParam::Int(clamped as i64))
            }
            fn visit_u128<E: de::Error>(self, u: u128) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Int(i64::try_from(u).unwrap_or(i64::MAX)))
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Float(x))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Text(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(OpenSpielParam::Text(s))
            }
        }
        deserializer.deserialize_any(Kinds)
    }
}

/// A spec as a file gives it, before [`OpenSpielSpec::check`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadSpec {
    name: String,
    #[serde(default)]
    params: ReadParams,
    #[serde(default, rename = "import")]
    modules: Vec<String>,
}

/// Parameters as a file gives them: each name once, each value of a kind OpenSpiel takes, an
/// error naming the parameter.
#[derive(Default)]
struct ReadParams(BTreeMap<String, OpenSpielParam>);

impl<'de> Deserialize<'de> for ReadParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Params;
        impl<'de> Visitor<'de> for Params {
            type Value = ReadParams;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from parameter names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ReadParams, A::Error> {
                let mut params = BTreeMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    let value = map.next_value::<OpenSpielParam>().map_err(|e| {
                        de::Error::custom(format!(
                            "parameter `{}`: {PARAM_KINDS} expected ({e})",
                            shown(&name)
                        ))
                    })?;
                    if params.insert(name.clone(), value).is_some() {
                        return Err(de::Error::custom(format!(
                            "parameter `{}` is given twice: give each parameter once",
                            shown(&name)
                        )));
                    }
                }
                Ok(ReadParams(params))
            }
        }
        deserializer.deserialize_map(Params)
    }
}

impl TryFrom<ReadSpec> for OpenSpielSpec {
    type Error = String;
    fn try_from(read: ReadSpec) -> Result<Self, String> {
        let spec = OpenSpielSpec {
            name: read.name,
            params: read.params.0,
            modules: read.modules,
        };
        spec.check()?;
        Ok(spec)
    }
}

/// That `name` (of a game or a parameter, `what`) is plain: letters, digits and `_`, at most
/// [`MAX_NAME_CHARS`].
fn check_name(what: &str, name: &str) -> Result<(), String> {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name.is_empty() || !plain || name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "{what} `{}`: expected letters, digits and `_`, at most {MAX_NAME_CHARS} characters",
            shown(name)
        ));
    }
    Ok(())
}

/// The most modules a spec's `import` may name.
pub const MAX_MODULES: usize = 16;

/// That every module of a spec's `import` is a Python module's dotted name (parts of letters,
/// digits and `_`, none starting with a digit, at most [`MAX_NAME_CHARS`] in all), at most
/// [`MAX_MODULES`] of them, none twice.
fn check_modules(modules: &[String]) -> Result<(), String> {
    if modules.len() > MAX_MODULES {
        return Err(format!(
            "import: {} modules named, at most {MAX_MODULES} allowed",
            modules.len()
        ));
    }
    for (k, module) in modules.iter().enumerate() {
        let part_ok = |part: &str| {
            part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && part.chars().next().is_some_and(|c| !c.is_ascii_digit())
        };
        if module.chars().count() > MAX_NAME_CHARS || !module.split('.').all(part_ok) {
            return Err(format!(
                "import: `{}` is not a Python module's name: expected dotted parts of letters, \
                 digits and `_` (e.g. `open_spiel.python.games`), at most {MAX_NAME_CHARS} characters",
                shown(module)
            ));
        }
        if modules[..k].contains(module) {
            return Err(format!(
                "import: `{}` is named twice: name each module once",
                shown(module)
            ));
        }
    }
    Ok(())
}

impl OpenSpielSpec {
    /// That OpenSpiel can be given this spec: plain names ([`MAX_NAME_CHARS`]), ints in C++'s
    /// `int` range (OpenSpiel's parameters are `int`), finite floats. The message names the
    /// parameter and what is allowed.
    pub fn check(&self) -> Result<(), String> {
        check_name("game name", &self.name)?;
        check_modules(&self.modules)?;
        for (name, value) in &self.params {
            check_name("parameter", name)?;
            let name = shown(name);
            match value {
                OpenSpielParam::Int(i) if i32::try_from(*i).is_err() => {
                    return Err(format!(
                        "parameter `{name}`: {i} is outside OpenSpiel's int range ({} to {})",
                        i32::MIN,
                        i32::MAX
                    ))
                }
                OpenSpielParam::Float(x) if !x.is_finite() => {
                    return Err(format!(
                        "parameter `{name}`: expected a finite float, got {x}"
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// This spec for a message: OpenSpiel's text of it, escaped and cut ([`shown`]).
    pub fn shown(&self) -> String {
        shown(&self.to_string())
    }

    /// Whether a parameter names a file OpenSpiel opens ([`FILE_PARAMS`]): OpenSpiel's
    /// reasons about such a spec are not shown, as they may quote the file.
    pub fn names_a_file(&self) -> bool {
        self.params
            .keys()
            .any(|k| FILE_PARAMS.contains(&k.as_str()))
    }

    /// That every file a parameter names ([`FILE_PARAMS`]) is a regular file of at most
    /// [`evomcts_records::runfs::MAX_SPEC_FILE_BYTES`], opened without blocking: a FIFO or a device is
    /// refused before OpenSpiel could wait on it. Nothing of the file is read.
    pub fn check_files(&self) -> Result<(), String> {
        for (name, value) in &self.params {
            if !FILE_PARAMS.contains(&name.as_str()) {
                continue;
            }
            let OpenSpielParam::Text(file) = value else {
                return Err(format!(
                    "parameter `{name}`: expected a string naming a file"
                ));
            };
            let path = std::path::Path::new(file);
            let refused = |why: String| {
                format!(
                    "parameter `{name}`: {}: {why}",
                    evomcts_records::escape::path(path)
                )
            };
            let opened =
                evomcts_records::runfs::open_regular(path, std::fs::OpenOptions::new().read(true))
                    .map_err(|e| refused(e.to_string()))?;
            let bytes = opened.metadata().map_err(|e| refused(e.to_string()))?.len();
            let max = evomcts_records::runfs::MAX_SPEC_FILE_BYTES;
            if bytes > max {
                return Err(refused(format!(
                    "{bytes} bytes, more than the {max} a game file may have"
                )));
            }
        }
        Ok(())
    }
}

/// That a game OpenSpiel loaded fits the searches: at most [`MAX_LEGAL_MOVES`] distinct
/// actions (OpenSpiel's `num_distinct_actions()`, which bounds the legal moves of any state)
/// and games of at most [`MAX_GAME_LENGTH`] (`max_game_length()`). A provider checks this
/// before it plays the game at all; the message names the game (`game`, as a message shows it:
/// [`OpenSpielSpec::shown`]) and the bound.
pub fn check_sizes(game: &str, distinct_actions: i64, max_game_length: i64) -> Result<(), String> {
    let over = |value: i64, max: usize| usize::try_from(value).map_or(true, |v| v > max);
    if over(distinct_actions, MAX_LEGAL_MOVES) {
        return Err(format!(
            "OpenSpiel's `{game}` has {distinct_actions} distinct actions; a search holds at \
             most {MAX_LEGAL_MOVES} legal moves at a decision"
        ));
    }
    if over(max_game_length, MAX_GAME_LENGTH) {
        return Err(format!(
            "OpenSpiel's `{game}` may last {max_game_length} actions and chance outcomes \
             (`max_game_length()`); evomcts plays games of at most {MAX_GAME_LENGTH}"
        ));
    }
    Ok(())
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
    /// The spec's own checks (a spec made in code has not passed them) and its files' come
    /// first, before OpenSpiel sees it.
    pub fn start(&self) -> Result<ExternalGame, String> {
        self.0.check()?;
        self.0.check_files()?;
        let provider = PROVIDER.get().ok_or_else(|| no_provider(self.0))?;
        let loaded = provider.load(self.0)?;
        ExternalGame::new(loaded.start, loaded.returns_bound).map_err(|e| e.to_string())
    }
}

impl PartialEq for OpenSpielGame {
    /// Typed: `pig(winscore=20)` is not `pig(winscore="20")`, though both write alike.
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for OpenSpielGame {}

impl fmt::Debug for OpenSpielGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// For tables and messages: the spec as OpenSpiel writes it, escaped and cut ([`shown`]).
impl fmt::Display for OpenSpielGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.shown())
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
    /// Whether OpenSpiel can be loaded at all (Python: `pyspiel` imports). Without it, specs
    /// naming its games are read unchecked, as in a process without a provider: reading a
    /// run folder never needs the game.
    fn available(&self) -> bool {
        true
    }
    /// Called on each worker thread of a run's pool before it plays an OpenSpiel game, and
    /// [`OpenSpielProvider::worker_stopped`] on each after the run: a binding may keep
    /// per-thread state in between (Python: the thread's state, so each call into Python need
    /// not make one).
    fn worker_started(&self) {}
    fn worker_stopped(&self) {}
}

/// The provider whose worker hooks a pool playing `game` installs (`frame::RunPool`): the
/// installed one for an OpenSpiel game, `None` for a native game or without a provider.
pub fn worker_hooks(game: &super::GameChoice) -> Option<&'static dyn OpenSpielProvider> {
    if !game.describe().open_spiel {
        return None;
    }
    Some(PROVIDER.get()?.as_ref())
}

static PROVIDER: OnceLock<Box<dyn OpenSpielProvider>> = OnceLock::new();

/// Makes OpenSpiel's games playable in this process; a second call is ignored (returns false).
pub fn install_provider(provider: Box<dyn OpenSpielProvider>) -> bool {
    PROVIDER.set(provider).is_ok()
}

/// Whether a provider is installed and OpenSpiel is available to it: OpenSpiel's games can be
/// started in this process.
pub fn provider_installed() -> bool {
    PROVIDER.get().is_some_and(|p| p.available())
}

/// The installed OpenSpiel's version, if a provider is installed.
pub fn installed_version() -> Option<String> {
    PROVIDER.get().map(|p| p.version())
}

fn no_provider(spec: &OpenSpielSpec) -> String {
    format!(
        "the OpenSpiel game `{}` is played from the Python package, which loads OpenSpiel: \
         `pip install ./python open_spiel`, then `python -m evomcts` with the same arguments \
         (see docs/openspiel.md)",
        spec.shown()
    )
}

/// A warning when a record was made with another OpenSpiel than the installed one (`None`
/// when they agree, or when either is unknown): `replay` and a league's `--resume` print it.
pub fn version_warning(recorded: Option<&str>) -> Option<String> {
    let (recorded, installed) = (recorded?, installed_version()?);
    (recorded != installed).then(|| {
        format!(
            "records made with OpenSpiel {}, now read with OpenSpiel {}: a change of rules \
             between versions shows as games that do not reproduce",
            shown(recorded),
            shown(&installed)
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

    #[test]
    fn a_spec_names_the_python_modules_to_import_and_they_are_checked() {
        let games = r#"(name: "python_tic_tac_toe", import: ["open_spiel.python.games"])"#;
        let s = spec(games);
        assert_eq!(s.modules, ["open_spiel.python.games"]);
        // The game is written as OpenSpiel writes it; the modules are kept in records.
        assert_eq!(s.to_string(), "python_tic_tac_toe");
        let json = serde_json::to_string(&OpenSpielGame::new(s.clone())).unwrap();
        assert_eq!(
            json,
            r#"{"name":"python_tic_tac_toe","import":["open_spiel.python.games"]}"#
        );
        assert_eq!(serde_json::from_str::<OpenSpielSpec>(&json).unwrap(), s);
        assert_ne!(s, spec(r#"(name: "python_tic_tac_toe")"#));
        for (bad, says) in [
            (r#"["os; rm -rf /"]"#, "is not a Python module's name"),
            (r#"["a..b"]"#, "is not a Python module's name"),
            (r#"["9lives"]"#, "is not a Python module's name"),
            (r#"[""]"#, "is not a Python module's name"),
            (r#"["m", "m"]"#, "`m` is named twice"),
        ] {
            let err = refusal(&format!(r#"(name: "g", import: {bad})"#));
            assert!(err.contains(says), "{bad}: {err}");
        }
        let many: Vec<String> = (0..=MAX_MODULES).map(|k| format!("\"m{k}\"")).collect();
        let err = refusal(&format!(r#"(name: "g", import: [{}])"#, many.join(",")));
        assert!(err.contains("at most 16 allowed"), "{err}");
    }

    fn refusal(text: &str) -> String {
        ron::from_str::<OpenSpielSpec>(text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn parameters_are_read_once_each_of_a_kind_openspiel_takes() {
        let twice = refusal(r#"(name: "connect_four", params: {"rows": 6, "rows": 7})"#);
        assert!(twice.contains("parameter `rows` is given twice"), "{twice}");
        for value in ["[1, 2]", r#"{"a": 1}"#, "()"] {
            let text = format!(r#"(name: "pig", params: {{"winscore": {value}}})"#);
            let kind = refusal(&text);
            assert!(
                kind.contains("parameter `winscore`") && kind.contains(PARAM_KINDS),
                "{value}: {kind}"
            );
        }
        for value in ["99999999999", "-2147483649", "18446744073709551615"] {
            let text = format!(r#"(name: "connect_four", params: {{"rows": {value}}})"#);
            let range = refusal(&text);
            assert!(
                range.contains("parameter `rows`") && range.contains("2147483647"),
                "{value}: {range}"
            );
        }
        let fine = spec(r#"(name: "connect_four", params: {"rows": 2147483647})"#);
        assert_eq!(
            fine.params["rows"],
            OpenSpielParam::Int(i64::from(i32::MAX))
        );
        let name = refusal(r#"(name: "pig\u{202e}x", params: {})"#);
        assert!(
            name.contains("game name") && name.contains("\\u{202e}"),
            "{name}"
        );
        let long = "a".repeat(100_000);
        let long = refusal(&format!(r#"(name: "{long}")"#));
        assert!(long.len() < 1000, "{} bytes", long.len());
    }

    #[test]
    fn specs_compare_with_their_parameters_typed() {
        let int = OpenSpielGame::new(spec(r#"(name: "pig", params: {"winscore": 20})"#));
        let text: OpenSpielGame =
            serde_json::from_str(r#"{"name":"pig","params":{"winscore":"20"}}"#).unwrap();
        assert_eq!(int.spec().to_string(), text.spec().to_string());
        assert_ne!(int, text);
    }

    #[test]
    fn a_game_too_wide_or_too_long_for_the_searches_is_refused_naming_the_bound() {
        let mnk = "mnk(k=5,m=300,n=300)";
        let wide = check_sizes(mnk, 90_000, 90_000).unwrap_err();
        assert!(
            wide.contains("90000 distinct actions") && wide.contains(&MAX_LEGAL_MOVES.to_string()),
            "{wide}"
        );
        let long = check_sizes("pig(winscore=1000000000)", 2, 1_000_000_000).unwrap_err();
        assert!(long.contains(&MAX_GAME_LENGTH.to_string()), "{long}");
        check_sizes(mnk, MAX_LEGAL_MOVES as i64, MAX_GAME_LENGTH as i64).unwrap();
        assert!(check_sizes(mnk, -1, 10).is_err());
    }

    #[test]
    fn a_file_parameter_must_name_a_regular_file_never_waited_for() {
        let dir = std::env::temp_dir().join(format!("evomcts-os-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let with_file = |path: &std::path::Path| OpenSpielSpec {
            name: "efg_game".into(),
            params: [(
                "filename".to_string(),
                OpenSpielParam::Text(path.display().to_string()),
            )]
            .into(),
            modules: Vec::new(),
        };
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let refused = with_file(&fifo).check_files().unwrap_err();
        assert!(
            refused.contains("parameter `filename`") && refused.contains("FIFO"),
            "{refused}"
        );
        let folder = with_file(&dir).check_files().unwrap_err();
        assert!(folder.contains("a folder"), "{folder}");
        assert!(with_file(&dir.join("missing")).check_files().is_err());
        let file = dir.join("game.efg");
        std::fs::write(&file, "EFG 2 R \"secret line\" { \"a\" \"b\" }\n").unwrap();
        let regular = with_file(&file);
        regular.check_files().unwrap();
        assert!(regular.names_a_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_spec_in_messages_is_escaped_and_cut() {
        let odd = OpenSpielGame::new(OpenSpielSpec {
            name: "pig".into(),
            params: [(
                "s".to_string(),
                OpenSpielParam::Text(format!("\u{202e}\u{7}{}", "x".repeat(100_000))),
            )]
            .into(),
            modules: Vec::new(),
        });
        let text = odd.to_string();
        assert!(
            text.contains("\\u{202e}") && text.contains("\\u{7}"),
            "{text}"
        );
        assert!(
            text.chars().count() < SHOWN_CHARS + 40,
            "{} characters",
            text.len()
        );
    }
}
