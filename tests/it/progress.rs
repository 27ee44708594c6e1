//! Following and finding games: the live standings file follows the records while a league
//! runs and ends equal to the final standings; `replay --list` numbers games as `--game K`
//! does, in schedule order whatever order they finished in; messages name games readably.

use crate::support::{evomcts, opts, tables};
use evomcts::league::report::standings_table;
use evomcts::league::run::{live_standings_text, run_league_observed, LIVE_STANDINGS_FILE};
use evomcts::league::{load_runs, read_records, record_path, run_league, schedule, LeagueSpec};
use std::path::PathBuf;

const THREE: &str = r#"(
    name: "three",
    games_per_match: 2,
    seed: 9,
    controllers: [
        (name: "Random", spec: Random),
        (name: "Random 2", spec: Random),
        (name: "MCTS 20", spec: Mcts(sims: 20)),
    ],
)"#;

fn three() -> LeagueSpec {
    LeagueSpec::from_ron(THREE, "three.ron").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    crate::support::scratch("progress", name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn live_standings_follow_the_records_and_end_as_the_final_standings() {
    let spec = three();
    let dir = scratch("live");
    let total = 12;
    let mut seen = Vec::new();
    // Interrupted after 5 games: every refresh shows exactly what games.jsonl holds then.
    let mut check = |update: &evomcts::league::run::LiveUpdate<'_>| {
        let on_disk = read_records(&record_path(&dir)).unwrap().games;
        assert_eq!(update.recorded, on_disk.len());
        assert_eq!(update.total, total);
        assert_eq!(*update.tables, tables(&spec, &on_disk));
        let file = std::fs::read_to_string(update.file).unwrap();
        assert_eq!(
            file,
            live_standings_text(&spec, &tables(&spec, &on_disk), on_disk.len(), total)
        );
        seen.push(update.recorded);
    };
    run_league_observed(&spec, &opts(&dir, false, 1, Some(5)), &mut check).unwrap();
    run_league_observed(&spec, &opts(&dir, true, 2, None), &mut check).unwrap();
    // A twelve-game run refreshes after every game (a tenth of the games, at least one),
    // during the run and not only at its end, and once more when each call ends.
    for n in 1..=total {
        assert!(seen.contains(&n), "no refresh after {n} games: {seen:?}");
    }
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&total));

    // The file left behind is the final standings, as `evomcts table` computes them.
    let (_, games, _) = load_runs(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(games.len(), total);
    let live = std::fs::read_to_string(dir.join(LIVE_STANDINGS_FILE)).unwrap();
    assert_eq!(
        live,
        format!(
            "standings of `three` after 12 of 12 games\n{}",
            standings_table(&tables(&spec, &games)).to_text()
        )
    );
    // Resuming a finished run changes nothing in it.
    run_league(&spec, &opts(&dir, true, 1, None)).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join(LIVE_STANDINGS_FILE)).unwrap(),
        live
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cells of a `--list` row: columns are separated by two or more spaces.
fn cells(line: &str) -> Vec<String> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn replay_list_and_game_k_count_in_schedule_order() {
    let spec = three();
    let dir = scratch("list");
    let run = dir.to_str().unwrap();
    // Two threads and an interruption: games.jsonl is in completion order, with a gap.
    run_league(&spec, &opts(&dir, false, 2, Some(7))).unwrap();
    let recorded = read_records(&record_path(&dir)).unwrap().games;
    assert_eq!(recorded.len(), 7);

    let listed = evomcts(&["replay", run, "--list"]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let out = text(&listed.stdout);
    let mut lines = out.lines();
    assert!(lines.next().unwrap().contains("schedule order"));
    assert_eq!(
        cells(lines.next().unwrap()),
        [
            "K",
            "Player 1 v player 2",
            "Game",
            "Score",
            "Winner",
            "Tile seed"
        ]
    );
    let jobs = schedule(spec.seed, 3, spec.games_per_match);
    let mut numbers = Vec::new();
    for line in lines {
        let row = cells(line);
        let k: usize = row[0].parse().unwrap();
        numbers.push(k);
        let game = recorded
            .iter()
            .find(|g| g.id() == jobs[k].id)
            .unwrap_or_else(|| panic!("row {k} lists a game that is not recorded: {line}"));
        let [a, b] = game.game.carcassonne().unwrap().final_scores;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => game.names[0].as_str(),
            std::cmp::Ordering::Less => game.names[1].as_str(),
            std::cmp::Ordering::Equal => "draw",
        };
        assert_eq!(
            row[1..],
            [
                format!("{} v {}", game.names[0], game.names[1]),
                game.id().to_string(),
                format!("{a} – {b}"),
                winner.to_string(),
                game.game.carcassonne().unwrap().tile_seed.to_string(),
            ],
            "{line}"
        );
    }
    assert_eq!(numbers.len(), recorded.len());
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");

    // `--game K` is the same K, and says which game, who plays and on which tiles.
    let k = *numbers.last().unwrap();
    let game = recorded.iter().find(|g| g.id() == jobs[k].id).unwrap();
    let shown = evomcts(&["replay", run, "--game", &k.to_string()]);
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    let first = text(&shown.stdout).lines().next().unwrap().to_string();
    assert_eq!(
        first,
        format!(
            "game {k} ({}): {} (player 1) vs {} (player 2), tile seed {}",
            game.id(),
            game.names[0],
            game.names[1],
            game.game.carcassonne().unwrap().tile_seed
        )
    );
    // A scheduled game not yet played, and a K outside the schedule, are errors that say so.
    let missing = (0..jobs.len()).find(|k| !numbers.contains(k)).unwrap();
    let refused = evomcts(&["replay", run, "--game", &missing.to_string()]);
    assert!(!refused.status.success());
    let err = text(&refused.stderr);
    let id = jobs[missing].id;
    assert!(
        err.contains(&format!("game {missing} ({id}: "))
            && err.contains(&spec.controllers[id.first].name)
            && err.contains("not recorded")
            && err.contains("7 of 12"),
        "{err}"
    );
    let beyond = evomcts(&["replay", run, "--game", "12"]);
    assert!(text(&beyond.stderr).contains("has 12 games, numbered 0 to 11"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_verifies_quietly_and_keeps_progress_off_stdout() {
    let spec = three();
    let dir = scratch("verify");
    let run = dir.to_str().unwrap();
    run_league(&spec, &opts(&dir, false, 1, Some(4))).unwrap();
    for quiet in [true, false] {
        let args: &[&str] = if quiet {
            &["replay", run, "--quiet"]
        } else {
            &["replay", run]
        };
        let out = evomcts(args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "4 games replayed, 4 reproduced, 0 diverged\n"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn league_errors_name_games_readably() {
    let spec = three();
    let dir = scratch("errors");
    run_league(&spec, &opts(&dir, false, 1, Some(2))).unwrap();
    // A record from another league's schedule (four entrants) in this folder.
    let path = record_path(&dir);
    let mut games = read_records(&path).unwrap().games;
    games[0].job.id.second = 3;
    let lines: String = games
        .iter()
        .map(|g| serde_json::to_string(g).unwrap() + "\n")
        .collect();
    std::fs::write(&path, lines).unwrap();
    let err = run_league(&spec, &opts(&dir, true, 1, None))
        .err()
        .expect("a foreign game is refused")
        .to_string();
    assert!(
        err.contains("game 0 v 3 #0 is not part of this run's schedule"),
        "{err}"
    );
    assert!(!err.contains("GameId"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
