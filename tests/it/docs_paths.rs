//! Every source, test or document path that README.md, ARCHITECTURE.md and docs/*.md name
//! exists, so the documents follow the files when they move. Paths under `runs/` are left
//! out: they name what commands write.

use std::path::{Path, PathBuf};

/// The trees whose files the documents point readers to.
const CHECKED_ROOTS: [&str; 5] = ["src/", "crates/", "tests/", "docs/", "bench/"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./*-".contains(c)
}

/// The paths under [`CHECKED_ROOTS`] that `text` names, where the root starts a word (so
/// `python/tests/x.py` is not read as `tests/x.py`); a trailing full stop ends the sentence.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, _) in text.char_indices() {
        let before = text[..start].chars().next_back();
        if before.is_some_and(is_path_char) {
            continue;
        }
        let rest = &text[start..];
        if !CHECKED_ROOTS.iter().any(|r| rest.starts_with(r)) {
            continue;
        }
        let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        out.push(rest[..end].trim_end_matches('.').to_string());
    }
    out
}

/// Whether `path` (relative to the crate, `*` matching within one file name) names something.
fn exists(path: &str) -> bool {
    let Some((dir, pattern)) = path.trim_end_matches('/').rsplit_once('/') else {
        return root().join(path).exists();
    };
    let Some((prefix, suffix)) = pattern.split_once('*') else {
        return root().join(path).exists();
    };
    std::fs::read_dir(root().join(dir)).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.len() >= prefix.len() + suffix.len()
                && name.starts_with(prefix)
                && name.ends_with(suffix)
        })
    })
}

#[test]
fn every_path_the_documents_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for path in named_paths(&text) {
            checked += 1;
            if !exists(&path) {
                missing.push(format!("{}: {path}", doc.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "named but missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_paths_at_a_word_start_only_and_matches_globs() {
    let text =
        "see `tests/it/game_scoring.rs`, python/tests/test_docs.py and tests/it/reliability*.rs.";
    assert_eq!(
        named_paths(text),
        ["tests/it/game_scoring.rs", "tests/it/reliability*.rs"]
    );
    assert!(exists("tests/it/reliability*.rs"));
    assert!(!exists("tests/game_scoring.rs"));
    assert!(!exists("tests/it/nothing*.rs"));
}
