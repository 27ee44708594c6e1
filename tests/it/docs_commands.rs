//! The first and reproduce commands of the documents run as written on a clean clone: the
//! repository's committed tree (`git clone` of HEAD, so every committed run folder is there, as
//! a new user finds it) gets each command of docs/new-game.md's "Try it" and of README's quick
//! start and "Reproduce" line, run in document order with the binary under
//! test, and every one must succeed. The specs they name are scaled down in the clone first
//! (simulations, games, generations, samples, sequences: [`SCALED`]), so the test checks the
//! exact command lines, folders and spec files, not the budgets (the real runs take minutes to
//! an hour). A command that wrote into a committed folder is refused there ("already holds"),
//! which is how these commands failed before.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The spans of documents whose commands must run as written: (file, first marker, end marker).
const SPANS: [(&str, &str, &str); 3] = [
    ("docs/new-game.md", "## Try it", "What these runs measured"),
    ("README.md", "## Quick start", "## Two commands"),
    (
        "README.md",
        "Reproduce: `evomcts evolve",
        "Fitness throughput",
    ),
];

/// The spec settings scaled down in the clone, and the value each gets.
const SCALED: [(&str, u64); 10] = [
    ("sims", 4),
    ("games_per_match", 1),
    ("generations", 1),
    ("samples", 2),
    ("elite_samples", 2),
    ("min_samples", 2),
    ("max_samples", 4),
    ("batch", 2),
    ("sequences", 2),
    ("depth", 2),
];

/// The prefixes a documented command starts with; what follows is the binary's arguments.
const PREFIXES: [&str; 2] = ["cargo run --release -- ", "evomcts "];

/// The commands of `text` that run a league, evolution, validation, replay or report: the
/// lines of indented code blocks and the backticked spans (joined across line breaks), as
/// argument lists.
fn commands_in(text: &str) -> Vec<Vec<String>> {
    let mut pieces: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| l.trim().to_string())
        .collect();
    pieces.extend(
        text.split('`')
            .skip(1)
            .step_by(2)
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
    );
    let mut out = Vec::new();
    for piece in pieces {
        let Some(args) = PREFIXES.iter().find_map(|p| piece.strip_prefix(p)) else {
            continue;
        };
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        let runs = ["league", "evolve", "validate", "replay", "report"];
        if args.first().is_some_and(|a| runs.contains(&a.as_str())) && !out.contains(&args) {
            out.push(args);
        }
    }
    out
}

fn documented_commands() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (file, start, end) in SPANS {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let from = text
            .find(start)
            .unwrap_or_else(|| panic!("{file}: no {start:?}"));
        let to = from
            + text[from..]
                .find(end)
                .unwrap_or_else(|| panic!("{file}: no {end:?} after {start:?}"));
        let found = commands_in(&text[from..to]);
        assert!(!found.is_empty(), "{file}: no command after {start:?}");
        for c in found {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// `text` with every whole-number setting of [`SCALED`] replaced by its scaled value.
fn scale(text: &str) -> String {
    let mut out = text.to_string();
    for (key, value) in SCALED {
        let pattern = format!("{key}: ");
        let mut result = String::new();
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&pattern) {
            let word_start =
                at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let after = &rest[at + pattern.len()..];
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            result.push_str(&rest[..at + pattern.len()]);
            if word_start && digits > 0 && !after[digits..].starts_with('.') {
                result.push_str(&value.to_string());
                rest = &after[digits..];
            } else {
                rest = after;
            }
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// A clean clone of the repository's HEAD in a scratch folder.
fn clean_clone(name: &str) -> PathBuf {
    let dir = crate::support::scratch("docs-commands", name);
    let status = Command::new("git")
        .args(["clone", "-q"])
        .arg(root())
        .arg(&dir)
        .status()
        .expect("git (the test clones the repository to run the documents' commands)");
    assert!(status.success(), "git clone {} failed", root().display());
    dir
}

/// The built-in league's spec: `evomcts league` without a spec plays runs/quick.ron, compiled
/// into the binary (`include_str!` in src/cli/league.rs), into runs/quick.
const BUILT_IN_SPEC: &str = "runs/quick.ron";

/// Runs every documented command on a clean clone, in document order, with the specs they
/// name scaled down. With `built_in_scaled`, the bare `league` (the built-in league, whose
/// spec is compiled in and so cannot be scaled in the clone) runs as `league runs/quick.ron`,
/// the same spec into the same folder, scaled like the others.
fn run_documented_commands(name: &str, built_in_scaled: bool) {
    let commands: Vec<Vec<String>> = documented_commands()
        .into_iter()
        .map(|args| {
            if built_in_scaled && args == ["league"] {
                vec!["league".to_string(), BUILT_IN_SPEC.to_string()]
            } else {
                args
            }
        })
        .collect();
    let clone = clean_clone(name);
    let mut scaled = Vec::new();
    for args in &commands {
        for spec in args.iter().filter(|a| a.ends_with(".ron")) {
            let path = clone.join(spec);
            if !scaled.contains(&path) {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{spec}, named by `{}`: {e}", args.join(" ")));
                std::fs::write(&path, scale(&text)).unwrap();
                scaled.push(path);
            }
        }
    }
    for args in &commands {
        let out = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(args)
            .current_dir(&clone)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`evomcts {}` failed on a clean clone: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&clone);
}

#[test]
fn the_documents_first_and_reproduce_commands_run_as_written_on_a_clean_clone() {
    assert!(
        documented_commands().contains(&vec!["league".to_string()]),
        "README's quick start runs the built-in league"
    );
    run_documented_commands("clone", true);
}

/// [`the_documents_first_and_reproduce_commands_run_as_written_on_a_clean_clone`] with the
/// built-in league at its full size, as README's main command plays it.
#[test]
#[ignore = "heavy tier (25 s): .ci/run runs it with `cargo test -- --ignored`"]
fn the_documents_commands_run_with_the_built_in_league_at_full_size() {
    run_documented_commands("clone-full", false);
}

#[test]
fn the_scan_finds_the_commands_and_the_scaling_changes_whole_numbers_only() {
    let text = "Try it\n\n    cargo run --release -- league runs/x.ron\n    cargo run --release -- plot all runs/x\n\nthen `evomcts\nvalidate game runs/v.ron --out runs/mine/v`.";
    assert_eq!(
        commands_in(text),
        [
            vec!["league", "runs/x.ron"],
            vec!["validate", "game", "runs/v.ron", "--out", "runs/mine/v"]
        ]
    );
    assert_eq!(
        scale("(sims: 200, c_e: 0.5, es: (generations: 10), samples: 40, elite_samples: 200, z: 2.326, depth: 4.5)"),
        "(sims: 4, c_e: 0.5, es: (generations: 1), samples: 2, elite_samples: 2, z: 2.326, depth: 4.5)"
    );
    assert!(documented_commands().len() >= 6);
}
