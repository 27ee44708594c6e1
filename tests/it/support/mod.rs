//! Helpers shared by the tests: scratch folders, running the binary, game positions, a slow,
//! obviously-correct model of the rules that the fast engine is checked against, and a tiny
//! game written against the game interface alone.

#![allow(dead_code)]

pub mod slow_model;
pub mod tiny_pig;

use evomcts::games::carcassonne::{FeatureKind, GameState, Move, Reveal, TileKind};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch folder `evomcts-<module>-<pid>-<name>` in the system's temporary folder, removed
/// if it exists and not created. Tests of one run share the process id, so each module passes
/// its own prefix. The folder is removed again when the test that asked for it ends (the
/// test's thread, as the test harness runs each test on a thread of its own): a passing test
/// leaves nothing behind; a failing one keeps its folder and says where on stderr.
pub fn scratch(module: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evomcts-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    SCRATCH.with(|folders| folders.borrow_mut().push(Scratch(dir.clone())));
    dir
}

/// A folder for a fixture that several tests share (built once, in a `OnceLock`), which no
/// single test may remove: `evomcts-<module>-<name>` in Cargo's folder for integration tests'
/// data (`target/tmp`), replaced by the next run and removed by `cargo clean`, never in the
/// system's temporary folder. Removed if it exists and not created.
pub fn fixture_dir(module: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("evomcts-{module}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A scratch folder, removed when dropped unless its test failed.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if FAILED.with(std::cell::Cell::get) {
            if self.0.exists() {
                eprintln!(
                    "the failed test's scratch folder is kept: {}",
                    self.0.display()
                );
            }
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

thread_local! {
    /// The scratch folders of the test running on this thread, removed when it ends.
    static SCRATCH: std::cell::RefCell<Vec<Scratch>> = {
        note_failures();
        std::cell::RefCell::new(Vec::new())
    };
    /// Whether a panic (a failed assertion) happened on this thread. No destructor, so the
    /// folders' destructors can still read it.
    static FAILED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// After a panic the test caught and expected (`catch_unwind`): the test has not failed.
pub fn panic_was_expected() {
    FAILED.with(|failed| failed.set(false));
}

/// Installs, once, a panic hook that marks the panicking thread's test as failed before the
/// harness's own report.
fn note_failures() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            FAILED.with(|failed| failed.set(true));
            report(info);
        }));
    });
}

/// League run options for a test: no progress bar, `threads` workers, at most `max_games`.
pub fn opts(
    dir: &Path,
    resume: bool,
    threads: usize,
    max_games: Option<usize>,
) -> evomcts::league::RunOptions {
    evomcts::league::RunOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        max_games,
        shard: None,
    }
}

/// Evolution run options for a test: no progress, `threads` workers, stopping after generation
/// `stop` when given.
pub fn evolve_opts(
    dir: &Path,
    threads: usize,
    resume: bool,
    stop: Option<usize>,
) -> evomcts::evolve::RunOptions {
    evomcts::evolve::RunOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        stop_after: stop,
        srun: None,
    }
}

/// Validation options for a test: no progress, `threads` workers, stopping after `stop`
/// sequences when given.
pub fn validate_opts(
    dir: &Path,
    resume: bool,
    threads: usize,
    stop: Option<usize>,
) -> evomcts::validation::PlayOptions {
    evomcts::validation::PlayOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        stop_after: stop,
        srun: None,
    }
}

/// The tables of a league's recorded games.
pub fn tables(
    spec: &evomcts::league::LeagueSpec,
    games: &[evomcts::league::LeagueGame],
) -> evomcts::league::Tables {
    evomcts::league::Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, games)
}

/// Runs the binary with `args`, whatever its exit status.
pub fn evomcts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .output()
        .unwrap()
}

/// `evomcts ARGS`, killed (and the test failed) if it runs longer than `secs` seconds.
pub fn evomcts_within(args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("evomcts {args:?} ran longer than {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs the binary with `args`, fails the test unless it succeeds, and returns its stdout
/// and stderr.
pub fn evomcts_ok(args: &[&str]) -> (String, String) {
    let out = evomcts(args);
    assert!(
        out.status.success(),
        "evomcts {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The index of the `nth` segment of kind `kind` on tile `tile` (segment order is fixed per
/// tile type).
pub fn seg(tile: TileKind, kind: FeatureKind, nth: usize) -> u8 {
    tile.def()
        .segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == kind)
        .nth(nth)
        .map(|(i, _)| i as u8)
        .unwrap_or_else(|| panic!("tile {tile} has no {kind:?} #{nth}"))
}

/// Draws `tile` and plays it at (x, y) with `rotation`, optionally with a meeple on the `nth`
/// feature of a kind. Panics with the engine's reason when the move is illegal.
pub fn lay(
    state: &mut GameState,
    tile: TileKind,
    x: i8,
    y: i8,
    rotation: u8,
    meeple: Option<(FeatureKind, usize)>,
) {
    assert_eq!(state.reveal(tile), Ok(Reveal::Ready), "drawing {tile}");
    let meeple = meeple.map(|(k, n)| seg(tile, k, n));
    state
        .apply(Move {
            x,
            y,
            rotation,
            meeple,
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Every Rust source file under `dir`, at any depth, added to `out`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every line of code (comments left out) of the workspace's sources (the command line's
/// `src/` and each layer crate's `crates/*/src/`), as (`file:line`, code), for tests of rules
/// that hold across the sources.
pub fn source_lines() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        rust_files(&krate.unwrap().path().join("src"), &mut files);
    }
    assert!(
        files.len() > 100,
        "the source scan finds {} files: has the layout moved?",
        files.len()
    );
    let mut lines = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if !code.starts_with("//") {
                lines.push((format!("{}:{}", file.display(), i + 1), code.to_string()));
            }
        }
    }
    lines
}

/// Fails the test, listing them, if any code line of the sources matches `found` (given the
/// `file:line` and the code): for rules that hold across the sources. `instead` says what to
/// use.
pub fn assert_no_source_line(instead: &str, found: impl Fn(&str, &str) -> bool) {
    let lines: Vec<String> = source_lines()
        .into_iter()
        .filter(|(at, code)| found(at, code))
        .map(|(at, code)| format!("{at}: {code}"))
        .collect();
    assert!(lines.is_empty(), "{instead}:\n{}", lines.join("\n"));
}

/// Every file under `dir` (its sub-folders too), by relative path, sorted: what byte-for-byte
/// resume tests compare.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path.strip_prefix(root).unwrap().to_path_buf(), bytes));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}
