//! What leagues and evolution runs share on disk: seed derivation, reading spec files (and
//! resolving the files a spec names), atomic writes, and the lock that keeps a run folder to one
//! process.
//!
//! It sits below `league` and `evolve` and above `search`, so both run kinds treat their folders
//! the same way: a spec is read once, every file it names is read then and its content put in the
//! spec (so the spec's hash covers what is played and later edits of those files cannot change a
//! run), and every file a run writes appears whole or not at all.

use evomcts_formula::{Grammar, RonSyntaxError};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use serde::{de::DeserializeOwned, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

mod files;
pub use files::{
    check_output_file, check_output_folder, check_plain_name, check_still_in_place, create_folder,
    default_folder, file_stem, is_run_folder, open_own, open_regular, remove_stale_temporaries,
    replace_with, spec_file_stem, write_atomically, VALIDATION_ROWS_HEADER,
};

/// SplitMix64 finaliser: a well-mixed 64-bit value from any 64-bit input.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed derived from a master seed and a path of numbers.
pub fn derive_seed(master: u64, path: &[u64]) -> u64 {
    path.iter()
        .fold(splitmix(master), |h, &p| splitmix(h ^ splitmix(p)))
}

/// FNV-1a over `text` as 16 hex digits: the spec hashes, stable across platforms and Rust
/// versions.
pub fn fnv1a_hex(text: &str) -> String {
    format!("{:016x}", evomcts_formula::fnv1a(text.bytes()))
}

/// Why a spec file (league, evolution run) or a file it names could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error("cannot read {file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Syntax(RonSyntaxError),
    #[error("{file}: field `{field}`: {message}")]
    Invalid {
        file: String,
        field: String,
        message: String,
    },
}

impl From<evomcts_formula::GrammarError> for SpecFileError {
    fn from(err: evomcts_formula::GrammarError) -> Self {
        use evomcts_formula::GrammarError as G;
        match err {
            G::Io { file, source } => SpecFileError::Io { file, source },
            G::Syntax(syntax) => SpecFileError::Syntax(syntax),
            G::Invalid {
                file,
                line,
                column,
                field,
                message,
            } => SpecFileError::Syntax(RonSyntaxError {
                file,
                line,
                column,
                message: format!("field `{field}`: {message}"),
            }),
            G::NotResolved(name) => SpecFileError::Invalid {
                file: String::new(),
                field: "grammar".into(),
                message: format!("`{name}` was not read as a grammar file"),
            },
        }
    }
}

/// The RON dialect of every spec file (leagues, evolution runs).
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        )
        // Deeply nested input fails with a syntax error instead of exhausting the stack.
        .with_recursion_limit(128)
}

/// Spec files and the files they name are small; anything larger is a mistake (a record file
/// or a binary given by accident), refused before it is read into memory.
pub const MAX_SPEC_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The largest record file (`games.jsonl`) read: a league's records are held in memory, and
/// 10 million games (the most a league may schedule) of ~5 KB each fit below it.
pub const MAX_RECORD_FILE_BYTES: u64 = 64 * 1024 * 1024 * 1024;

/// The largest generation file read: a generation holds at most 2 × 10,000 members of a few
/// hundred bytes each.
pub const MAX_GENERATION_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The largest table or data file the tool wrote and reads back (validation games, Star
/// decisions, figures).
pub const MAX_DATA_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// Reads at most `max` bytes of `path` if it is a regular file ([`open_regular`]: a FIFO or a
/// device such as `/dev/zero` is refused without waiting), and refuses a longer file before it
/// fills memory: every file the tool reads goes through
/// here (or [`read_capped_text`]), each kind with its own bound. `what` says what the file
/// should have been, for the message.
pub fn read_capped(path: &Path, max: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path, OpenOptions::new().read(true))?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        let size = if max >= 1 << 30 {
            format!("{} GiB", max >> 30)
        } else if max >= 1 << 20 {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        };
        return Err(std::io::Error::other(format!(
            "larger than {size}, not {what}"
        )));
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text; a UTF-8 byte-order mark, which some editors write, is
/// dropped.
pub fn read_capped_text(path: &Path, max: u64, what: &str) -> std::io::Result<String> {
    let text = String::from_utf8(read_capped(path, max, what)?)
        .map_err(|_| std::io::Error::other("not UTF-8 text"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Reads a text file a spec consists of or names; the error names the file.
pub fn read_spec_text(path: &Path) -> Result<String, SpecFileError> {
    read_capped_text(path, MAX_SPEC_FILE_BYTES, "a spec").map_err(|source| SpecFileError::Io {
        file: path.display().to_string(),
        source,
    })
}

/// Parses a spec from RON and validates it with `validate` (which returns the bad field and
/// what is wrong); errors name `file` and the line and column or the field.
pub fn parse_spec<T: DeserializeOwned>(
    text: &str,
    file: &str,
    validate: impl FnOnce(&T) -> Result<(), (String, String)>,
) -> Result<T, SpecFileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let spec: T = ron_options()
        .from_str(text)
        .map_err(|e| SpecFileError::Syntax(RonSyntaxError::new(file, &e)))?;
    validate(&spec).map_err(|(field, message)| SpecFileError::Invalid {
        file: file.to_string(),
        field,
        message,
    })?;
    Ok(spec)
}

/// A spec file kind (league, evolution run): RON in the shared dialect, validated on reading,
/// with the files it names resolved relative to the spec file's folder.
pub trait SpecFile: Serialize + DeserializeOwned {
    /// The first problem found, as (field, message).
    fn check(&self) -> Result<(), (String, String)>;

    /// Replaces every file the spec names by that file's content, reading paths relative to
    /// `base`; a spec that names no file is unchanged.
    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)>;

    /// Parses and validates a spec as it is, without reading any file it names; `file` names
    /// it in errors. This is how a run's stored `spec.ron` is read.
    fn from_ron(text: &str, file: &str) -> Result<Self, SpecFileError> {
        parse_spec(text, file, Self::check)
    }

    /// Reads a spec file and resolves the files it names relative to the spec file's folder.
    fn from_file(path: impl AsRef<Path>) -> Result<Self, SpecFileError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        // Validation waits for the named files: it checks their content.
        let mut spec: Self = parse_spec(&read_spec_text(path)?, &file, |_| Ok(()))?;
        let base = path.parent().unwrap_or(Path::new(""));
        spec.resolve_files(base)
            .map_err(|(field, message)| SpecFileError::Invalid {
                file: file.clone(),
                field,
                message,
            })?;
        spec.check()
            .map_err(|(field, message)| SpecFileError::Invalid {
                file,
                field,
                message,
            })?;
        Ok(spec)
    }

    /// The spec as RON, in the form `from_ron` reads.
    fn to_ron(&self) -> String {
        ron_options()
            .to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("a spec serialises")
    }
}

/// Whether a grammar setting already holds a grammar's content rather than a name or path.
pub fn is_inline_grammar(name: &str) -> bool {
    Grammar::is_inline(name)
}

/// Reads a grammar file.
pub fn read_grammar(path: impl AsRef<Path>) -> Result<Grammar, evomcts_formula::GrammarError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let text = read_capped_text(path, MAX_SPEC_FILE_BYTES, "a grammar").map_err(|source| {
        evomcts_formula::GrammarError::Io {
            file: file.clone(),
            source,
        }
    })?;
    Grammar::from_ron(&text, &file)
}

/// A grammar setting resolved: built-in names and inline content stay, a path (relative to
/// `base`) is replaced by the grammar's content, validated.
pub fn resolve_grammar(name: &str, base: &Path) -> Result<String, String> {
    if matches!(name, "paper" | "ucb1_tuned") || is_inline_grammar(name) {
        return Ok(name.to_string());
    }
    let path = base.join(name);
    let text = read_spec_text(&path).map_err(|e| e.to_string())?;
    let grammar =
        Grammar::from_ron(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
    Ok(grammar.to_ron())
}

/// A controller with every file it names (formula file, ES grammar file) read relative to
/// `base` and put in place as content, so building it reads no file.
pub fn resolve_controller(spec: &mut ControllerSpec, base: &Path) -> Result<(), (String, String)> {
    let ControllerSpec::Mcts(settings) = spec else {
        return Ok(());
    };
    if let Selection::FormulaFile(name) = &settings.selection {
        let path = base.join(name);
        let text = read_spec_text(&path).map_err(|e| ("selection".to_string(), e.to_string()))?;
        settings.selection = Selection::Formula(text.trim().to_string());
    }
    if let Some(es) = &mut settings.es {
        es.grammar = resolve_grammar(&es.grammar, base).map_err(|e| ("es.grammar".into(), e))?;
    }
    Ok(())
}

/// Every check a controller of a spec passes (its settings, its formula's own `[C=...]`, the
/// work of one decision), as (field, message).
pub fn check_controller(spec: &ControllerSpec) -> Result<(), (String, String)> {
    spec.validate()
        .map_err(|e| (String::new(), e.to_string()))?;
    check_formula_c_e(spec)?;
    check_decision_work(spec)
}

/// A controller written as a spec writes it (`Mcts(sims: 400, c_e: 2.0)`, `Random`), parsed in
/// the spec files' dialect, the files it names read relative to `base` and every check of
/// [`check_controller`] passed; `file` names the text in errors.
pub fn parse_controller(
    text: &str,
    file: &str,
    base: &Path,
) -> Result<ControllerSpec, SpecFileError> {
    let invalid = |(field, message): (String, String)| SpecFileError::Invalid {
        file: file.to_string(),
        field: if field.is_empty() {
            "spec".into()
        } else {
            field
        },
        message,
    };
    let mut spec: ControllerSpec = parse_spec(text, file, |_| Ok(()))?;
    resolve_controller(&mut spec, base).map_err(invalid)?;
    check_controller(&spec).map_err(invalid)?;
    Ok(spec)
}

/// Bounds on a per-decision ES, each of whose sizes multiplies into every decision's work.
pub const MAX_ES_LAMBDA: usize = 10_000;
pub const MAX_ES_GENERATIONS: usize = 100_000;
pub const MAX_ES_SIMS_PER_FITNESS: u32 = 1_000_000;
/// The most playouts one decision may cost (MCTS's simulations and its ES's, times the
/// rollouts per leaf): at about 70,000 playouts a second, a few minutes per decision. Each
/// field's own bound lets products far beyond any run's end through, so the product is bounded.
pub const MAX_DECISION_PLAYOUTS: u64 = 10_000_000;
/// The deepest *-minimax search: every ply below the root multiplies the work by about 600
/// (moves × tile kinds), so depth 3 takes about a second per decision and depth 4 about ten
/// minutes.
pub const MAX_STAR_DEPTH: u32 = 4;

/// Bounds on the work of one decision of `controller` (a league entrant, an evolution run's
/// candidate or baseline): every size alone and their product; the error is (field, message),
/// the message stating the bound.
pub fn check_decision_work(controller: &ControllerSpec) -> Result<(), (String, String)> {
    let over = |field: &str, value: u64, max: u64| {
        (value > max).then(|| {
            (
                field.to_string(),
                format!("must be at most {max}, got {value}"),
            )
        })
    };
    let settings = match controller {
        ControllerSpec::Random => return Ok(()),
        ControllerSpec::Star(s) => {
            return match over("depth", u64::from(s.depth), u64::from(MAX_STAR_DEPTH)) {
                Some((field, message)) => Err((
                    field,
                    format!(
                        "{message}: every ply below the root multiplies a decision's work by \
                         about 600 (depth 3 takes about a second per decision, depth 4 about \
                         ten minutes)"
                    ),
                )),
                None => Ok(()),
            }
        }
        ControllerSpec::Mcts(settings) => settings,
    };
    let rollouts = u128::from(settings.rollouts_per_leaf.max(1));
    let mut playouts = u128::from(settings.sims) * rollouts;
    let mut formula = format!("sims {}", settings.sims);
    if let Some(es) = &settings.es {
        let found = over("es.lambda", es.lambda as u64, MAX_ES_LAMBDA as u64)
            .or_else(|| over("es.mu", es.mu as u64, MAX_ES_LAMBDA as u64))
            .or_else(|| {
                over(
                    "es.generations",
                    es.generations as u64,
                    MAX_ES_GENERATIONS as u64,
                )
            })
            .or_else(|| {
                over(
                    "es.sims_per_fitness",
                    u64::from(es.sims_per_fitness),
                    u64::from(MAX_ES_SIMS_PER_FITNESS),
                )
            });
        if let Some(e) = found {
            return Err(e);
        }
        playouts +=
            es.lambda as u128 * es.generations as u128 * u128::from(es.sims_per_fitness) * rollouts;
        formula = format!(
            "sims {} + lambda {} × generations {} × sims_per_fitness {}",
            settings.sims, es.lambda, es.generations, es.sims_per_fitness
        );
    }
    if playouts > u128::from(MAX_DECISION_PLAYOUTS) {
        let field = if settings.es.is_some() { "es" } else { "sims" };
        return Err((
            field.into(),
            format!(
                "one decision would run {playouts} playouts (({formula}) × rollouts_per_leaf \
                 {rollouts}); at most {MAX_DECISION_PLAYOUTS} per decision"
            ),
        ));
    }
    Ok(())
}

/// A formula's own `[C=...]` must be a C_E value as `c_e` is: finite and >= 0.
pub fn check_c_e(formula: &evomcts_formula::Formula) -> Result<(), String> {
    match formula.c_e() {
        Some(c) if !(c >= 0.0 && c.is_finite()) => Err(format!(
            "[C={c}] must be a finite number >= 0, as `c_e` must"
        )),
        _ => Ok(()),
    }
}

/// The check of [`check_c_e`] on a controller's selection formula given as text, as (field,
/// message).
pub fn check_formula_c_e(spec: &ControllerSpec) -> Result<(), (String, String)> {
    if let ControllerSpec::Mcts(settings) = spec {
        if let Selection::Formula(text) = &settings.selection {
            if let Ok(formula) = evomcts_formula::Formula::parse(text) {
                check_c_e(&formula).map_err(|m| ("selection".to_string(), m))?;
            }
        }
    }
    Ok(())
}

/// The lock file of a run folder.
pub const LOCK_FILE: &str = ".evomcts.lock";

/// An exclusive advisory lock on a run folder, held while the value lives. It is an operating
/// system file lock, so the system releases it however the process ends (kill -9 included):
/// there is no stale lock to clean up by hand.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
    path: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{dir} is in use by another evomcts process ({holder}); wait for it to finish, or choose another --out")]
    Busy { dir: String, holder: String },
    #[error("{file}: cannot lock the run folder: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
}

impl RunLock {
    /// Locks `dir` (which must exist) for `what` (e.g. "league runs/quick.ron"), or says who
    /// holds it.
    pub fn acquire(dir: &Path, what: &str) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            file: path.display().to_string(),
            source,
        };
        // Not truncated on opening, and only a file of its own: the holder is written after
        // the lock is taken, and a link planted at the lock's name is refused.
        let mut file = open_own(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // A holder line is short; a planted file must not fill memory.
                let _ = (&mut file).take(4096).read_to_string(&mut holder);
                let holder = holder.trim();
                return Err(LockError::Busy {
                    dir: dir.display().to_string(),
                    holder: if holder.is_empty() {
                        "it is just starting".to_string()
                    } else {
                        crate::escape::terminal(holder)
                    },
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        // Who holds the lock, for the message of a process that finds it taken.
        let holder = format!(
            "pid {} on {}, {what}, since {}",
            std::process::id(),
            hostname(),
            utc_now()
        );
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        file.write_all(holder.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        // The folder is ours now: what a killed writer left behind goes.
        remove_stale_temporaries(dir);
        Ok(RunLock { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    /// Leaves the lock file empty, so a finished run's folder holds the same bytes whoever ran
    /// it (the lock itself ends with the file handle).
    fn drop(&mut self) {
        let _ = self._file.set_len(0);
    }
}

fn hostname() -> String {
    read_capped_text(Path::new("/proc/sys/kernel/hostname"), 4096, "a host name")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".to_string())
}

/// The current time as `YYYY-MM-DD HH:MM:SS UTC`.
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The most worker threads a `--threads` flag may ask for.
pub const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value: at least 1, at most [`MAX_THREADS`].
pub fn check_threads(threads: Option<usize>) -> Result<(), String> {
    match threads {
        Some(0) => Err("--threads must be at least 1".into()),
        Some(n) if n > MAX_THREADS => {
            Err(format!("--threads must be at most {MAX_THREADS}, got {n}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controller_is_parsed_resolved_and_checked_with_errors_naming_place_and_field() {
        let here = Path::new("");
        let spec = parse_controller("Mcts(sims: 40, c_e: 1.5)", "<controller>", here).unwrap();
        let ControllerSpec::Mcts(settings) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!((settings.sims, settings.c_e), (40, 1.5));
        assert_eq!(
            parse_controller("Random", "<controller>", here).unwrap(),
            ControllerSpec::Random
        );
        let syntax = parse_controller("Mcts(sims: 40", "<controller>", here)
            .unwrap_err()
            .to_string();
        assert!(syntax.starts_with("<controller>:1:"), "{syntax}");
        let work = parse_controller("Mcts(sims: 20000000)", "<controller>", here)
            .unwrap_err()
            .to_string();
        assert!(
            work.starts_with("<controller>: field `spec`") && work.contains("`sims`"),
            "{work}"
        );
        let missing = parse_controller(
            "Mcts(selection: FormulaFile(\"no/such/formula.txt\"))",
            "<controller>",
            here,
        )
        .unwrap_err()
        .to_string();
        assert!(
            missing.contains("field `selection`") && missing.contains("no/such/formula.txt"),
            "{missing}"
        );
    }

    #[test]
    fn a_second_lock_on_a_folder_is_refused_and_names_the_holder() {
        let dir = std::env::temp_dir().join(format!("evomcts-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = RunLock::acquire(&dir, "league test").unwrap();
        let err = RunLock::acquire(&dir, "league other")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("in use by another evomcts process")
                && err.contains(&format!("pid {}", std::process::id()))
                && err.contains("league test"),
            "{err}"
        );
        drop(first);
        RunLock::acquire(&dir, "league again").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_utc_clock_reads_like_a_date() {
        let now = utc_now();
        assert_eq!(now.len(), "2026-11-22 23:59:01 UTC".len(), "{now}");
        assert!(now.starts_with("20"), "{now}");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let parsed: Result<(u32,), _> = parse_spec("\u{feff}(7)", "bom.ron", |_| Ok(()));
        assert_eq!(parsed.unwrap(), (7,));
    }
}
