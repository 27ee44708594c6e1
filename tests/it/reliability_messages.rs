//! Messages (issue 23, D9, D19, D20, D21): a printed command does only what it says when
//! pasted, a refused command leaves nothing behind, hidden characters in names and paths reach
//! neither the terminal nor a CSV file, and every spec error names its file.

use crate::reliability_paths::{evomcts_in, file, listing, s, scratch, stderr, TINY};
use crate::support::{evomcts, evomcts_ok};
use std::process::Command;

/// Hidden characters that must never be printed or written as they are.
const HIDDEN: [char; 4] = ['\u{1b}', '\u{202e}', '\u{200b}', '\u{7}'];

fn assert_no_hidden(what: &str, text: &str) {
    assert!(
        !text.contains(HIDDEN),
        "{what} holds a hidden character: {text:?}"
    );
}

// D21: an invalid inline ES grammar is refused when the spec is read, naming the spec file and
// the field, in a league as in an evolution.
#[test]
fn an_invalid_inline_grammar_names_the_spec_file() {
    let dir = scratch("inline-grammar");
    let league = file(
        &dir,
        "es-league.ron",
        r#"(name: "es", games_per_match: 2, seed: 5, controllers: [
            (name: "ES", spec: Mcts(sims: 20, es: (grammar: "(terminals: [Q, Bogus])"))),
            (name: "Random", spec: Random)])"#,
    );
    let out = evomcts(&["league", s(&league), "--out", s(&dir.join("run")), "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("es-league.ron") && message.contains("es.grammar"),
        "{message}"
    );
    assert!(!dir.join("run").exists(), "the refused league left a folder");
    let evolve = file(
        &dir,
        "es-evolve.ron",
        &crate::reliability_paths::TINY_EVOLVE.replace(
            "seed: 7,",
            "seed: 7, grammar: \"(terminals: [Q, Bogus])\",",
        ),
    );
    let out = evomcts(&["evolve", s(&evolve), "--out", s(&dir.join("ev")), "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("es-evolve.ron"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}
