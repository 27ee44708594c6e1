//! Hand-edited records and generation files (issue 23, D1, D13, D14, D15, D16): every reader
//! checks what it reads as `--resume` does, refusing what no run of the spec could have written,
//! and computes what it shows without overflow.

use crate::support::{evomcts, opts, scratch, tables};
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions as EvolveOptions};
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
pub fn edit_first(dir: &Path, edit: impl FnOnce(&mut LeagueGame)) {
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
pub fn every_reader_refuses(run: &Path, field: &str) {
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
        (
            "first99",
            (|g: &mut LeagueGame| g.job.id.first = 99) as fn(&mut LeagueGame),
        ),
        ("self", |g: &mut LeagueGame| {
            g.job.id.second = g.job.id.first
        }),
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
    let err = load_runs(std::slice::from_ref(&dir))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not part of this run's schedule"), "{err}");
    for (field, edit) in [
        (
            "job",
            (|g: &mut LeagueGame| g.job.seed ^= 1) as fn(&mut LeagueGame),
        ),
        ("game.tile_seed", |g: &mut LeagueGame| {
            g.game.carcassonne_mut().unwrap().tile_seed ^= 1
        }),
        ("names", |g: &mut LeagueGame| g.names.swap(0, 1)),
    ] {
        std::fs::write(record_path(&dir), &clean).unwrap();
        edit_first(&dir, edit);
        let err = load_runs(std::slice::from_ref(&dir))
            .unwrap_err()
            .to_string();
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

// D16: extreme scores give one winner everywhere: the game's row, its match and the point
// difference agree.
#[test]
fn extreme_scores_give_one_winner_in_every_table() {
    let dir = folder("scores");
    let spec = league(&dir);
    let path = record_path(&dir);
    let mut games = read_records(&path).unwrap().games;
    for g in &mut games {
        g.game.carcassonne_mut().unwrap().final_scores = [i32::MAX, i32::MIN];
    }
    // No reader admits such a record (a Carcassonne score is at most 10000, issue 43): the
    // tables are computed from the games in memory.
    let t = tables(&spec, &games);
    for row in &t.games {
        assert_eq!(row.winner, row.first, "{row:?}");
    }
    for m in &t.matches {
        assert_eq!((m.first_wins, m.second_wins), (3, 0), "{m:?}");
        assert_eq!(
            m.score_difference_sum,
            3 * (i64::from(i32::MAX) - i64::from(i32::MIN))
        );
    }
    // Each side won its three games in the first seat: a drawn league, level on points.
    assert_eq!(t.standings[0].points, t.standings[1].points);
    assert_eq!(t.standings[0].point_difference, 0.0);
    let _ = std::fs::remove_dir_all(dir);
}

const EVOLVE: &str = r#"(
    name: "gens",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

fn evolve_opts(dir: &Path, resume: bool, stop_after: Option<usize>) -> EvolveOptions {
    EvolveOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(1),
        progress: false,
        stop_after,
        srun: None,
    }
}

fn evolve_spec() -> EvolveSpec {
    EvolveSpec::from_ron(EVOLVE, "gens.ron").unwrap()
}

/// Replaces `from` by `to` in generation file `g` of `dir`, which must hold it.
fn edit_generation(dir: &Path, g: usize, from: &str, to: &str) {
    let path = dir.join(format!("gen-{g:03}.ron"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from} in {text}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// The resume error for `dir`, checking the folder was left as it was.
fn resume_refused(dir: &Path) -> String {
    let before: Vec<_> = ["spec.ron", "gen-000.ron", "gen-001.ron", "champion.txt"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let err = run_evolution(&evolve_spec(), &evolve_opts(dir, true, None))
        .err()
        .expect("refused")
        .to_string();
    let after: Vec<_> = ["spec.ron", "gen-000.ron", "gen-001.ron", "champion.txt"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    assert!(before == after, "a refused resume changed the folder");
    assert!(!dir.join("gen-002.ron").exists());
    err
}

// D14: an id counter no run of the spec could hold is refused before it wraps.
#[test]
fn an_edited_id_counter_is_refused_on_resume() {
    let dir = folder("next-id");
    run_evolution(&evolve_spec(), &evolve_opts(&dir, false, Some(1))).unwrap();
    // mu + 1 + lambda * 1 = 7 after generation 1.
    edit_generation(&dir, 1, "next_id: 7,", "next_id: 18446744073709551615,");
    let err = resume_refused(&dir);
    assert!(
        err.contains("gen-001.ron") && err.contains("next_id") && err.contains("holds 7"),
        "{err}"
    );
    edit_generation(&dir, 1, "next_id: 18446744073709551615,", "next_id: 7,");
    let outcome = run_evolution(&evolve_spec(), &evolve_opts(&dir, true, None)).unwrap();
    assert_eq!(outcome.last.generation, 3);
    let _ = std::fs::remove_dir_all(dir);
}

// D15: an earlier generation written by another spec is refused, not only the last one.
#[test]
fn an_earlier_generation_of_another_spec_is_refused() {
    let dir = folder("foreign");
    run_evolution(&evolve_spec(), &evolve_opts(&dir, false, Some(1))).unwrap();
    let hash = evolve_spec().hash();
    edit_generation(&dir, 0, &hash, "0123456789abcdef");
    let err = resume_refused(&dir);
    assert!(
        err.contains("gen-000.ron") && err.contains("different spec"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// D15: `report` and `plot all` say that a generation file is missing.
#[test]
fn readers_of_an_evolution_folder_warn_about_a_missing_generation() {
    let dir = folder("gap");
    run_evolution(&evolve_spec(), &evolve_opts(&dir, false, None)).unwrap();
    std::fs::remove_file(dir.join("gen-001.ron")).unwrap();
    let d = dir.to_str().unwrap();
    let report = dir.join("report");
    let plots = dir.join("plots");
    for args in [
        vec!["report", d, "--out", report.to_str().unwrap()],
        vec!["plot", "all", d, "--out", plots.to_str().unwrap()],
    ] {
        let out = evomcts(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(
            stderr.contains("gen-001.ron") && stderr.contains("missing"),
            "{args:?}: {stderr}"
        );
    }
    let page = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(page.contains("gen-001.ron"), "the page does not say so");
    let _ = std::fs::remove_dir_all(dir);
}
