//! The games are listed once (`crates/arena/src/choice.rs`): no `match` over the games
//! has a `_` arm, so a new game that forgets to say something of itself fails to compile
//! instead of taking another game's defaults. This scans every Rust source of the workspace
//! and the Python package for a `match` whose arms name `GameChoice::` variants and that also
//! has a catch-all arm.

use std::path::Path;

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// An arm's pattern that names a game: `GameChoice::Pig(_) =>`, `| GameChoice::ConnectFour`.
fn names_a_game(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("GameChoice::") || t.starts_with("| GameChoice::")
}

/// A catch-all arm: `_ =>`, `_ if … =>`.
fn catches_all(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("_ =>") || t.starts_with("_ if ")
}

/// The lines (1-based) of catch-all arms in matches that also name a game by its variant:
/// the arms of one `match` are the lines at one indentation between lines indented less
/// (the sources are formatted by rustfmt).
fn catch_alls_over_games(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if !names_a_game(line) {
            continue;
        }
        let depth = indent(line);
        let in_block = |l: &&str| l.trim().is_empty() || indent(l) >= depth;
        let start = lines[..at]
            .iter()
            .rposition(|l| !in_block(l))
            .map_or(0, |p| p + 1);
        let end = lines[at..]
            .iter()
            .position(|l| !in_block(l))
            .map_or(lines.len(), |p| at + p);
        for (k, arm) in lines.iter().enumerate().take(end).skip(start) {
            if indent(arm) == depth && catches_all(arm) && !found.contains(&(k + 1)) {
                found.push(k + 1);
            }
        }
    }
    found
}

#[test]
fn no_match_over_the_games_has_a_catch_all_arm() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["crates", "src", "python/src"] {
        crate::support::rust_files(&root.join(dir), &mut files);
    }
    let choice = root.join("crates/arena/src/choice.rs");
    assert!(files.contains(&choice), "the scan reads the registry");
    let mut offending = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in catch_alls_over_games(&text) {
            offending.push(format!(
                "{}:{line}",
                file.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(
        offending.is_empty(),
        "a `_` arm in a match over the games gives a new game another's default; list every game: {offending:?}"
    );
}

/// The scan finds the arm the registry had before every game described itself, and passes
/// the exhaustive form.
#[test]
fn the_scan_finds_a_catch_all_arm() {
    let before = "    pub fn seed_name(&self) -> &'static str {
        match self {
            GameChoice::Carcassonne => \"tile seed\",
            GameChoice::Pig(_) => \"dice seed\",
            _ => \"seed\",
        }
    }
";
    assert_eq!(catch_alls_over_games(before), [5]);
    let guarded = "        match game {
            GameChoice::OpenSpiel(g) if ready => g.start(),
            _ if other => 1,
        }
";
    assert_eq!(catch_alls_over_games(guarded), [3]);
    let listed = "        match self {
            GameChoice::OpenSpiel(_)
            | GameChoice::Carcassonne
            | GameChoice::Pig(_)
            | GameChoice::ConnectFour => Ok(()),
        }
        match record {
            PlayedGame::Carcassonne(r) => Some(r),
            _ => None,
        }
";
    assert!(catch_alls_over_games(listed).is_empty());
}
