//! Hand-edited records and generation files (issue 23, D1, D13): every reader
//! checks what it reads as `--resume` does, refusing what no run of the spec could have written,
//! and computes what it shows without overflow.

use crate::support::{evomcts, opts, scratch, tables};
use evomcts::league::{load_runs, read_records, record_path, run_league, LeagueGame, LeagueSpec};
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    let dir = scratch("rrec", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TINY: &str = r#"(
    name: "tiny",
    games_per_match: 3,
    seed: 5,
    controllers: [
        (name: "A", spec: Random),
        (name: "B", spec: Random),
    ],
)"#;

/// A finished tiny league in `dir`.
fn league(dir: &Path) -> LeagueSpec {
    let spec = LeagueSpec::from_ron(TINY, "tiny.ron").unwrap();
    run_league(&spec, &opts(dir, false, 1, None)).unwrap();
    spec
}

/// Rewrites the run's records with `edit` applied to the first one.
fn edit_first(dir: &Path, edit: impl FnOnce(&mut LeagueGame)) {
    let path = record_path(dir);
    let mut games = read_records(&path).unwrap().games;
    edit(&mut games[0]);
    let lines: String = games
        .iter()
        .map(|g| serde_json::to_string(g).unwrap() + "\n")
        .collect();
    std::fs::write(&path, lines).unwrap();
}

/// Every command that reads the records of `run` refuses them with status 2 and a message
/// naming the record file, its line and `field`, without a panic.
fn every_reader_refuses(run: &Path, field: &str) {
    let r = run.to_str().unwrap();
    let out = run.join("out");
    let o = out.to_str().unwrap();
    for args in [
        vec!["table", r, "--out", o],
        vec!["report", r, "--out", o],
        vec!["plot", "all", r, "--out", o],
        vec!["plot", "league", r, "--out", o],
        vec!["replay", r, "--quiet"],
        vec!["replay", r, "--game", "0"],
        vec!["replay", r, "--list"],
        vec!["league", &format!("{r}/spec.ron"), "--out", r, "--resume"],
    ] {
        let result = evomcts(&args);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("games.jsonl:1:") && stderr.contains(field),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!out.join("games.csv").exists());
}

// D1: entrant indices no schedule holds (beyond the league, or a player against itself).
#[test]
fn records_with_entrants_outside_the_league_are_refused_by_every_reader() {
    for (name, edit) in [
        ("first99", (|g: &mut LeagueGame| g.job.id.first = 99) as fn(&mut LeagueGame)),
        ("self", |g: &mut LeagueGame| g.job.id.second = g.job.id.first),
    ] {
        let dir = folder(name);
        league(&dir);
        edit_first(&dir, edit);
        every_reader_refuses(&dir, "job.id");
        let _ = std::fs::remove_dir_all(dir);
    }
}

// D13: a game number beyond the match, or a record whose seeds or names are not the
// schedule's, is refused rather than counted.
#[test]
fn records_not_as_scheduled_are_refused_not_counted() {
    let dir = folder("index");
    let spec = league(&dir);
    let clean = std::fs::read(record_path(&dir)).unwrap();
    edit_first(&dir, |g| g.job.id.index = 99);
    every_reader_refuses(&dir, "job.id");
    let err = load_runs(std::slice::from_ref(&dir)).unwrap_err().to_string();
    assert!(err.contains("not part of this run's schedule"), "{err}");
    for (field, edit) in [
        ("job", (|g: &mut LeagueGame| g.job.tile_seed ^= 1) as fn(&mut LeagueGame)),
        ("game.tile_seed", |g: &mut LeagueGame| g.game.tile_seed ^= 1),
        ("names", |g: &mut LeagueGame| g.names.swap(0, 1)),
    ] {
        std::fs::write(record_path(&dir), &clean).unwrap();
        edit_first(&dir, edit);
        let err = load_runs(std::slice::from_ref(&dir)).unwrap_err().to_string();
        assert!(
            err.contains("games.jsonl:1:") && err.contains(&format!("{field} is not")),
            "{field}: {err}"
        );
    }
    std::fs::write(record_path(&dir), &clean).unwrap();
    let (_, games, report) = load_runs(std::slice::from_ref(&dir)).unwrap();
    assert_eq!((games.len(), report.missing.len()), (6, 0));
    assert_eq!(tables(&spec, &games).games.len(), 6);
    let _ = std::fs::remove_dir_all(dir);
}
